/**
 * The client's contract rules, run by ESLint with the repository's configuration on planted calls:
 * `scriptorium/reply-type-from-protocol` (tests/lint/eslint/replyTypes.js) and
 * `scriptorium/request-type-from-protocol` (tests/lint/eslint/requestTypes.js).
 */
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: fileURLToPath(new URL('../../', import.meta.url)) });

async function reported(code: string, path = 'frontend/src/planted/planted.ts', rule = 'scriptorium/reply-type-from-protocol'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path });
  return result!.messages.filter((message) => message.ruleId === rule).map((message) => message.message.split(' is written')[0]!);
}

const bodies = (code: string, path?: string) => reported(code, path, 'scriptorium/request-type-from-protocol');

const HEAD = "import { api, request } from '../api/client.ts';\nimport type { Session, MyChats } from '@scriptorium/domain/protocol/http/conversation';\nimport type { CollabDocDto } from '@scriptorium/domain/protocol/collab';\n";

test('a reply type written in the client is reported, wherever it hides in the type argument', async (t) => {
  const code = `${HEAD}interface SessionDto { session_id: string }
type Local = Session;
export const a = () => api.get<SessionDto>('/a');
export const b = () => api.post<{ review_plans: boolean }>('/b');
export const c = () => api.put<Local>('/c');
export const d = () => api.get<Session | SessionDto[]>('/d');
export const e = () => request<unknown>('GET', '/e');
`;
  t.deepEqual(await reported(code), ['SessionDto', '{ review_plans: boolean }', 'Local', 'SessionDto', 'unknown']);
});

test('the protocol’s types, their parts, text and no body pass; tests are not checked', async (t) => {
  const code = `${HEAD}export const a = () => api.get<Session>('/a');
export const b = () => api.get<MyChats['chats']>('/b');
export const c = () => api.patch<CollabDocDto[]>('/c');
export const d = () => api.delete<void>('/d');
export const e = () => api.get<string>('/e');
export const f = () => api.post('/f');
`;
  t.deepEqual(await reported(code), []);
  t.deepEqual(await reported(`${HEAD}export const a = () => api.get<{ x: 1 }>('/a');\n`, 'frontend/src/planted/planted.test.ts'), []);
});

const BODY_HEAD = "import { api, request } from '../api/client.ts';\nimport type { Session, SessionNameBody, SetModeBody } from '@scriptorium/domain/protocol/http/conversation';\n";

test('a JSON body without a type from the protocol is reported, and one typed in the client too', async (t) => {
  const code = `${BODY_HEAD}interface RenameBody { name: string }
export const a = () => api.put<Session>('/a', { json: { name: 'x' } });
export const b = () => api.post('/b', { json: { name: 'x' } });
export const c = () => api.put<Session, RenameBody>('/c', { json: { name: 'x' } });
export const d = () => api.patch<Session, { name: string }>('/d', { json: { name: 'x' } });
export const e = () => request<Session>('POST', '/e', { json: { name: 'x' } });
export const f = () => request<Session, SessionNameBody | RenameBody>('POST', '/f', { json: { name: 'x' } });
`;
  const untyped = 'This JSON body has no type from the protocol: name it as the call’s body type argument (api.post<Reply, Body>), imported (import type) from @scriptorium/domain/protocol/http/<area>, the z.input of the schema the route parses it with.';
  t.deepEqual(await bodies(code), [untyped, untyped, 'RenameBody', '{ name: string }', untyped, 'RenameBody']);
});

test('a body typed by the protocol passes, as do calls without a JSON body; tests are not checked', async (t) => {
  const code = `${BODY_HEAD}export const a = () => api.put<Session, SessionNameBody>('/a', { json: { name: 'x' } });
export const b = () => request<Session, SetModeBody>('POST', '/b', { json: { session_id: 's', mode: 1 } });
export const c = () => api.post<Session>('/c');
export const d = () => api.post<Session>('/d', { form: { name: 'x' } });
export const e = () => api.post<Session>('/e', { multipart: new FormData() });
`;
  t.deepEqual(await bodies(code), []);
  t.deepEqual(await bodies(`${BODY_HEAD}export const a = () => api.post('/a', { json: { x: 1 } });\n`, 'frontend/src/planted/planted.test.ts'), []);
});

const QUERY_HEAD = "import { api, request } from '../api/client.ts';\nimport type { MyChats, ChatsMyQuery, SharePdfQuery, MarkdownPdfBody } from '@scriptorium/domain/protocol/http/conversation';\n";
const untypedQuery = 'This query has no type from the protocol: name it as the call’s query type argument (api.get<Reply, Query>), imported (import type) from @scriptorium/domain/protocol/http/<area>, the z.input of the schema the route parses it with.';

test('a query without a type from the protocol is reported, and one typed in the client too, files included', async (t) => {
  const code = `${QUERY_HEAD}interface Paging { skip: number; limit: number }
export const a = () => api.get<MyChats>('/a', { query: { skip: 0, limit: 20 } });
export const b = () => api.get<MyChats, Paging>('/b', { query: { skip: 0, limit: 20 } });
export const c = () => api.delete<void, { id: string }>('/c', { query: { id: 'x' } });
export const d = () => api.getFile('/d', { query: { version: 1 } });
export const e = () => api.postFile<MarkdownPdfBody>('/e', { json: { markdown_content: '# x' }, query: { x: 1 } });
export const f = () => request<MyChats, never, Paging>('GET', '/f', { query: { skip: 0, limit: 20 } });
`;
  t.deepEqual(await bodies(code), [untypedQuery, 'Paging', '{ id: string }', untypedQuery, untypedQuery, 'Paging']);
});

test('queries and file bodies typed by the protocol pass; a file has no reply type to name', async (t) => {
  const code = `${QUERY_HEAD}export const a = () => api.get<MyChats, ChatsMyQuery>('/a', { query: { skip: 0, limit: 20 } });
export const b = () => api.getFile<SharePdfQuery>('/b', { query: { version: 1 } });
export const c = () => api.postFile<MarkdownPdfBody>('/c', { json: { markdown_content: '# x' } });
export const d = () => api.getFile('/d');
export const e = () => request<MyChats, never, ChatsMyQuery>('GET', '/e', { query: { skip: 0 } });
`;
  t.deepEqual(await bodies(code), []);
  t.deepEqual(await reported(code), []);
});
