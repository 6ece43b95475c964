/**
 * The client's reply-type rule (`scriptorium/reply-type-from-protocol`, tests/lint/eslint/replyTypes.js)
 * run by ESLint with the repository's configuration on planted calls.
 */
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: fileURLToPath(new URL('../../', import.meta.url)) });

async function reported(code: string, path = 'frontend/src/planted/planted.ts'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path });
  return result!.messages.filter((message) => message.ruleId === 'scriptorium/reply-type-from-protocol').map((message) => message.message.split(' is written')[0]!);
}

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
