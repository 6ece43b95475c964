import { spawn } from 'node:child_process';
import test from 'ava';
import { createActor } from 'xstate';
import { Corpus, SOLID_STATE } from '@scriptorium/workers/agents/deep_cognition/harness';
import type { AuditEvent } from '@scriptorium/domain/protocol/http/audit';
import { Replay, viewMarkdown } from '../../frontend/src/audit/replay.ts';
import { accountEn } from '../../frontend/src/i18n/account.en.ts';
import { writingEvent, writingMachine } from '../../frontend/src/machines/writing.ts';
import { applyMessage, emptyConversation } from '../../frontend/src/research/conversation.ts';
import { client, signInAdmin, signUp, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { owned } from '../support/children.ts';
import { startResearch, watchedSession } from '../support/research.ts';
import type { TestSocket } from '../support/socket.ts';

let app: TestApp;
let admin: Client;
let writer: Client & { userId: string };
let auditor: Client & { userId: string };
let sessionId: string;
let socket: TestSocket;

const arrives = (replyId: string, type: string, nth = 1) => {
  let seen = 0;
  return (m: any) => m.type === 'message' && m.content.message_id === replyId && m.content.content_type === type && ++seen === nth;
};

test.before(async () => {
  const corpus = new Corpus([...SOLID_STATE]);
  app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' }, { agents: { webSearch: corpus, localSearch: corpus, fetcher: corpus } });
  admin = await signInAdmin(app.url);
  writer = await signUp(app.url, 'writer');
  auditor = await signUp(app.url, 'inspector');
  // A research session with two report versions, watched by a live client from its first event.
  ({ sessionId, socket } = await watchedSession(app.url, writer, 'client-writer'));
  const { replyId } = await startResearch(writer, socket, sessionId, '对比2020年以来中国固态电池的技术路线和产业化进展，写一份决策参考报告');
  await socket.next(arrives(replyId, 'feedback_request'), 60_000);
  await writer.request('POST', `/backend/conversation/research/${sessionId}/feedback`, { option: 'manual_feedback', text: '补充固态电池成本方面的内容' });
  await socket.next(arrives(replyId, 'feedback_request', 2), 60_000);
  await app.settle();
});
test.after.always(async () => {
  socket?.close();
  await app?.stop();
});

const stream = () => `conversation-${sessionId}`;
const auditPaths = () => [`/backend/audit/search?q=`, `/backend/audit/streams/${stream()}/events`, `/backend/audit/streams/${stream()}/export.jsonl`];

test.serial('audit routes: anonymous 401, a user 403 (auditor role not yet granted), and only an admin grants the role', async (t) => {
  for (const path of auditPaths()) {
    t.is((await client(app.url).request('GET', path)).status, 401, path);
    t.is((await auditor.request('GET', path)).status, 403, path);
    t.is((await auditor.request('GET', path)).body.code, 'auth.forbidden');
  }
  t.is((await auditor.request('POST', `/backend/auth/admin/users/${auditor.userId}/auditor`, { auditor: true })).status, 403);
  t.is((await admin.request('POST', '/backend/auth/admin/users/nobody/auditor', { auditor: true })).status, 404);
  const granted = await admin.request('POST', `/backend/auth/admin/users/${auditor.userId}/auditor`, { auditor: true });
  t.is(granted.status, 200);
  t.true(granted.body.is_auditor);
  t.true((await auditor.request('GET', '/backend/auth/me')).body.is_auditor);
  for (const path of auditPaths()) {
    t.is((await auditor.request('GET', path)).status, 200, path);
    t.is((await admin.request('GET', path)).status, 200, path);
  }
  t.is((await auditor.request('GET', '/backend/auth/admin/audit-reads')).status, 403, 'auditors read streams, not the admin console');
});

test.serial('an auditor finds a session by title and owner, pages through its events and exports it; nothing of the user changes', async (t) => {
  const before = await app.services.events.readStream(`user-${writer.userId}`);
  const byOwner = await auditor.request('GET', '/backend/audit/search?user=writer&kind=conversation');
  t.deepEqual(byOwner.body.conversations.map((row: { id: string }) => row.id), [sessionId]);
  t.like(byOwner.body.conversations[0], { user_id: writer.userId, username: 'writer' }, 'a result names its owner');
  const today = new Date().toISOString().slice(0, 10);
  t.is((await auditor.request('GET', `/backend/audit/search?from=${today}&to=${today}&kind=user&q=writ`)).body.users[0].id, writer.userId);
  const first = await auditor.request('GET', `/backend/audit/streams/${stream()}/events?limit=10`);
  t.is(first.body.events.length, 10);
  t.is(first.body.next, 10);
  t.true(first.body.total > 10);
  t.like(first.body.events[1], { revision: 1, type: 'UserMessagePosted', actor: writer.userId, wire: { type: 'message', content: { content_type: 'user_input' } } });
  t.true(first.body.events[1].size > 0);
  const exported = await auditor.request('GET', `/backend/audit/streams/${stream()}/export.jsonl`);
  t.is(exported.headers.get('content-type'), 'application/x-ndjson');
  const lines = (exported.body as string).trim().split('\n').map((line) => JSON.parse(line));
  t.is(lines.length, first.body.total);
  t.like(lines[0], { streamId: stream(), revision: 0, type: 'SessionCreated' });
  t.deepEqual(await app.services.events.readStream(`user-${writer.userId}`), before, 'audit reads never touch the user');
});

test.serial('every audit read is recorded and listed for admins, newest first', async (t) => {
  await app.settle();
  const reads = await admin.request('GET', `/backend/auth/admin/audit-reads?auditor_id=${auditor.userId}`);
  t.is(reads.status, 200);
  const actions = reads.body.reads.map((read: { action: string; stream_id: string }) => `${read.action} ${read.stream_id.startsWith('{') ? 'query' : read.stream_id}`);
  t.deepEqual(actions.slice(0, 2), [`export ${stream()}`, `events ${stream()}`]);
  t.true(actions.includes('search query'));
  t.like(reads.body.reads[0], { auditor: 'inspector', auditor_id: auditor.userId });
});

test.serial("a user's stream reads without the password hash, in pages and in the export", async (t) => {
  const events = await auditor.request('GET', `/backend/audit/streams/user-${writer.userId}/events`);
  const registered = events.body.events.find((row: { type: string }) => row.type === 'UserRegistered');
  t.like(registered, { actor_name: null, data: { username: 'writer', passwordHash: '[redacted]' } });
  const exported = await auditor.request('GET', `/backend/audit/streams/user-${writer.userId}/export.jsonl`);
  // One line of JSON: the test client may hand it back parsed.
  const text = typeof exported.body === 'string' ? exported.body : JSON.stringify(exported.body);
  t.notRegex(text, /argon2/);
  t.regex(text, /"passwordHash":"\[redacted\]"/);
  const conversation = await auditor.request('GET', `/backend/audit/streams/${stream()}/events?limit=2`);
  t.like(conversation.body.events[1], { type: 'UserMessagePosted', actor: writer.userId, actor_name: 'writer' });
});

test.serial('engineer sessions are found by title and owner, and their stream reads as a timeline', async (t) => {
  const engineer = await writer.request('POST', '/backend/api/ai-engineer/sessions', { title: '修复登录页的样式', task_description: 'CSS 回归' });
  t.is(engineer.status, 201);
  await app.settle();
  const found = await auditor.request('GET', '/backend/audit/search?q=登录页&kind=engineer');
  t.deepEqual(found.body.engineer_sessions.map((row: { stream: string; user_id: string }) => [row.stream, row.user_id]), [[`engineer-${engineer.body.id}`, writer.userId]]);
  t.deepEqual(found.body.conversations, [], 'only the kind asked for');
  const timeline = await auditor.request('GET', `/backend/audit/streams/engineer-${engineer.body.id}/events`);
  t.like(timeline.body.events[0], { type: 'EngineerSessionCreated', actor: writer.userId, wire: null });
});

test.serial("the view folded at any position equals what the live client had shown by then", async (t) => {
  const replay = new Replay(stream());
  for (let from: number | null = 0; from !== null; ) {
    const page: { body: { events: AuditEvent[]; next: number | null } } = await auditor.request('GET', `/backend/audit/streams/${stream()}/events?from=${from}&limit=100`);
    replay.append(page.body.events);
    from = page.body.next;
  }
  const live = socket.received.filter((message) => message.type === 'message');
  const starts = replay.rows.filter((row) => row.wire?.type === 'message' && row.wire.content.content_type === 'writing_start');
  t.is(starts.length, 2);
  const firstChunk = replay.rows.findIndex((row) => row.type === 'MessageChunksAppended' && row.position > starts[0]!.position);
  // Mid-plan, mid-writing of v1, just before v2 starts, and the end.
  const positions = [replay.rows[Math.floor(firstChunk / 2)]!.position, replay.rows[firstChunk + 3]!.position, starts[1]!.position - 1, replay.rows.at(-1)!.position];
  for (const position of positions) {
    // The live client: every socket message up to the position, folded as the research view does.
    let conversation = emptyConversation();
    const writing = createActor(writingMachine, { input: { sessionId: stream() } }).start();
    for (const message of live.filter((candidate) => candidate.position <= position)) {
      const next = applyMessage(conversation, message);
      if (next === conversation) continue;
      conversation = next;
      const event = writingEvent(message.content);
      if (event) writing.send(event);
    }
    const view = replay.viewAt(replay.rows.filter((row) => row.position <= position).length);
    t.deepEqual(view.conversation.messages, conversation.messages, `chat at ${position}`);
    const { versions, currentVersion, draft } = writing.getSnapshot().context;
    t.deepEqual({ versions: view.writing.context.versions, currentVersion: view.writing.context.currentVersion, draft: view.writing.context.draft }, { versions, currentVersion, draft }, `canvas at ${position}`);
    writing.stop();
  }
  t.is(replay.viewAt(replay.rows.filter((row) => row.position < starts[1]!.position).length).writing.context.versions.length, 1, 'before the second version there is one');
});

test.serial('a read model is rebuilt with progress and verified against a shadow rebuild; an injected difference is reported', async (t) => {
  const list = await admin.request('GET', '/backend/auth/admin/projections');
  t.true(list.body.rebuild_here);
  t.truthy(list.body.projections.find((row: { name: string }) => row.name === 'chats'));
  t.is((await auditor.request('POST', '/backend/auth/admin/projections/chats/verify')).status, 403);
  t.is((await admin.request('POST', '/backend/auth/admin/projections/nothing/verify')).body.code, 'admin.projection_unknown');

  const clean = await admin.request('POST', '/backend/auth/admin/projections/chats/verify');
  t.is(clean.status, 200);
  t.like(clean.body, { projection: 'chats', differences: [], truncated: false });
  t.true(clean.body.documents >= 1);

  await app.services.readStore.collection('chats').update(sessionId, { $set: { title: 'tampered' } });
  const tampered = await admin.request('POST', '/backend/auth/admin/projections/chats/verify');
  t.is(tampered.body.differences.length, 1);
  t.like(tampered.body.differences[0], { collection: 'chats', id: sessionId, kind: 'changed', live: { title: 'tampered' } });
  t.not(tampered.body.differences[0].shadow.title, 'tampered');

  t.is((await admin.request('POST', '/backend/auth/admin/projections/chats/rebuild')).status, 200);
  await app.settle();
  const after = await admin.request('GET', '/backend/auth/admin/projections');
  t.is(after.body.projections.find((row: { name: string }) => row.name === 'chats').checkpoint, after.body.head);
  t.deepEqual((await admin.request('POST', '/backend/auth/admin/projections/chats/verify')).body.differences, [], 'the rebuild repaired it');
});

/** `npm run audit` as a child process, signed in through the environment. */
function auditCli(args: string[], token: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = owned(
    spawn(process.execPath, ['--import', 'tsx', 'frontend/cli/audit.ts', ...args], {
      cwd: new URL('../../', import.meta.url),
      env: { ...process.env, SCRIPTORIUM_SERVER: app.url, SCRIPTORIUM_TOKEN: token, SCRIPTORIUM_CONFIG: '/nonexistent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

test.serial('the audit CLI prints the timeline, the JSONL export, and the view at a position as the page folds it', async (t) => {
  const token = auditor.token!;
  const events = await app.services.events.readStream(stream());
  const timeline = await auditCli([stream()], token);
  t.is(timeline.code, 0, timeline.stderr);
  const lines = timeline.stdout.trim().split('\n');
  t.is(lines.length, events.length);
  t.deepEqual(lines[0]!.split('\t').slice(0, 2).concat(lines[0]!.split('\t')[3]!), [String(events[0]!.position), '0', 'SessionCreated']);

  const jsonl = await auditCli([stream(), '--jsonl'], token);
  t.deepEqual(jsonl.stdout.trim().split('\n').map((line) => JSON.parse(line).id), events.map((event) => event.id));

  const beforeSecondVersion = events.filter((event) => event.type === 'WritingVersionSaved')[1]!.position - 1;
  const replay = new Replay(stream());
  for (let from: number | null = 0; from !== null; ) {
    const page: { body: { events: AuditEvent[]; next: number | null } } = await auditor.request('GET', `/backend/audit/streams/${stream()}/events?from=${from}`);
    replay.append(page.body.events);
    from = page.body.next;
  }
  const at = await auditCli([stream(), '--at', String(beforeSecondVersion), '--lang', 'en'], token);
  t.is(at.code, 0, at.stderr);
  t.true(at.stdout.startsWith(`# Audit replay: ${stream()}`), at.stdout.slice(0, 80));
  t.true(at.stdout.includes('对比2020年以来中国固态电池的技术路线'), 'the question is in the chat');
  const rows = replay.rows.filter((row) => row.position <= beforeSecondVersion);
  const view = replay.viewAt(rows.length);
  t.is(view.writing.context.versions.length, 1, 'one version saved before the second');
  const { audit } = accountEn;
  const labels = { ...audit.markdown, chat: audit.view.chat, plan: audit.view.plan, canvas: audit.view.canvas, noCanvas: audit.view.noCanvas, status: audit.status };
  t.is(at.stdout, viewMarkdown(view, stream(), rows.at(-1), labels), 'the page and the CLI fold to the same view');

  const refused = await auditCli([stream()], writer.token!);
  t.is(refused.code, 1);
  t.regex(refused.stderr, /auth\.forbidden/);
  const bad = await auditCli([stream(), '--at', 'soon'], token);
  t.is(bad.code, 1);
  t.regex(bad.stderr, /--at must be a whole number/);
});
