import test from 'ava';
import { client, signUp, checkedFetch, startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 9, minute)).toISOString();
const session = (sessionId: string, ended = true) => ({
  metadata: { session_id: sessionId, project_name: 'scriptorium' },
  events: [
    { event_type: 'session_start', timestamp: at(0) },
    { event_type: 'user_query', timestamp: at(1), query: '为什么登录接口返回 401？' },
    { event_type: 'assistant_response', timestamp: at(2), content: '令牌过期了，请检查 `exp`。', model: 'offline', tokens: 42 },
    { event_type: 'command', timestamp: at(3), command: 'npm test' },
    { event_type: 'command_output', timestamp: at(4), content: '643 passed', exit_code: 0 },
    ...(ended ? [{ event_type: 'session_end', timestamp: at(5) }] : []),
  ],
});

test.serial('the CLI uploads a session; the list, the file, its download and the favourite follow', async (t) => {
  const user = await signUp(app.url, 'cliuser');
  const uploaded = await user.request('POST', '/backend/engineer/trajectory/files', session('s-1'));
  t.is(uploaded.status, 201);
  t.like(uploaded.body, {
    title: '为什么登录接口返回 401？',
    filename: 'scriptorium-2026-11-20-09-00.jsonl',
    trajectory_count: 6,
    preview_data: [{ event_type: 'user_query', query: '为什么登录接口返回 401？' }],
    metadata: { session_id: 's-1', project_name: 'scriptorium' },
    favorite: false,
    active: false,
  });
  const fileId = uploaded.body.file_id;
  await user.request('POST', '/backend/engineer/trajectory/files', session('s-2', false));

  const list = await user.request('GET', '/backend/engineer/trajectory/files?limit=10000');
  t.like(list.body, { total: 2, active_sessions: 1 });
  const detail = await user.request('GET', `/backend/engineer/trajectory/files/${fileId}`);
  t.is(detail.body.events.length, 6);
  t.like(detail.body.events[4], { event_type: 'command_output', exit_code: 0 });

  const download = await checkedFetch(`${app.url}/backend/engineer/trajectory/files/${fileId}/download`, { headers: { authorization: `Bearer ${user.token}` } });
  t.regex(download.headers.get('content-type') ?? '', /application\/x-ndjson/);
  t.regex(download.headers.get('content-disposition') ?? '', /scriptorium-2026-11-20-09-00\.jsonl/);
  const lines = (await download.text()).trim().split('\n').map((line) => JSON.parse(line));
  t.deepEqual(lines.map((line) => line.event_type), ['session_start', 'user_query', 'assistant_response', 'command', 'command_output', 'session_end']);

  t.like((await user.request('PUT', `/backend/engineer/trajectory/files/${fileId}/favorite`, { file_id: fileId, favorite: true })).body, { favorite: true });
  t.like((await user.request('GET', `/backend/engineer/trajectory/files/${fileId}/favorite`)).body, { favorite: true });

  const again = await user.request('POST', '/backend/engineer/trajectory/files', { ...session('s-1'), events: [...session('s-1').events, { event_type: 'user_query', timestamp: at(6), query: '还有别的问题吗？' }] });
  t.is(again.body.file_id, fileId, 'the same CLI session is the same file');
  t.like(again.body, { trajectory_count: 7, favorite: true });
  t.is((await user.request('GET', '/backend/engineer/trajectory/files')).body.total, 2);
});

test.serial('nobody else sees, downloads, favourites, shares or deletes a user’s trajectories', async (t) => {
  const owner = await signUp(app.url, 'trajowner');
  const other = await signUp(app.url, 'trajsnoop');
  const fileId = (await owner.request('POST', '/backend/engineer/trajectory/files', session('private'))).body.file_id;
  const before = await app.services.events.headPosition();
  for (const [method, path, body] of [
    ['GET', `/backend/engineer/trajectory/files/${fileId}`, undefined],
    ['GET', `/backend/engineer/trajectory/files/${fileId}/download`, undefined],
    ['PUT', `/backend/engineer/trajectory/files/${fileId}/favorite`, { favorite: true }],
    ['POST', '/backend/engineer/trajectory/share', { file_id: fileId }],
    ['GET', `/backend/engineer/trajectory/files/${fileId}/shares`, undefined],
    ['DELETE', `/backend/engineer/trajectory/files/${fileId}`, undefined],
  ] as const) {
    t.is((await other.request(method, path, body)).status, 404, `${method} ${path}`);
  }
  t.is((await other.request('GET', '/backend/engineer/trajectory/files')).body.total, 0);
  t.is((await client(app.url).request('GET', '/backend/engineer/trajectory/files')).status, 401);
  t.is(await app.services.events.headPosition(), before, 'nothing was written');
  const bad = await owner.request('POST', '/backend/engineer/trajectory/files', { metadata: { session_id: 'x' }, events: [{ event_type: 'teleport', timestamp: at(0) }] });
  t.is(bad.status, 422);
  t.is((await owner.request('POST', '/backend/engineer/trajectory/files', { metadata: { session_id: 'x' }, events: [] })).status, 422);
  t.is((await owner.request('GET', '/backend/engineer/trajectory/files?limit=0')).status, 422);
});

test.serial('a shared trajectory opens for anyone, downloads only when allowed, and ends when revoked, expired or deleted', async (t) => {
  const user = await signUp(app.url, 'trajsharer');
  const fileId = (await user.request('POST', '/backend/engineer/trajectory/files', session('shared'))).body.file_id;
  const viewOnly = await user.request('POST', '/backend/engineer/trajectory/share', { file_id: fileId, share_settings: { allow_download: false }, expires_in: 3600 });
  t.is(viewOnly.body.share_url, `/shared/trajectory/${viewOnly.body.token}`);
  const opened = await client(app.url).request('GET', `/backend/engineer/trajectory/shared/${viewOnly.body.token}`);
  t.like(opened.body, { title: '为什么登录接口返回 401？', share_settings: { allow_download: false } });
  t.is(opened.body.events.length, 6);
  t.false('favorite' in opened.body);
  const refused = await checkedFetch(`${app.url}/backend/engineer/trajectory/shared/${viewOnly.body.token}/download`);
  t.is(refused.status, 403);

  const downloadable = await user.request('POST', '/backend/engineer/trajectory/share', { file_id: fileId, share_settings: { allow_download: true } });
  t.is((await checkedFetch(`${app.url}/backend/engineer/trajectory/shared/${downloadable.body.token}/download`)).status, 200);

  // Its owner finds every live link later, newest first, and can revoke any of them.
  const listed = await user.request('GET', `/backend/engineer/trajectory/files/${fileId}/shares`);
  t.is(listed.status, 200);
  t.deepEqual(
    listed.body.shares.map((share: { token: string; allow_download: boolean; share_url: string }) => [share.token, share.allow_download, share.share_url]),
    [
      [downloadable.body.token, true, `/shared/trajectory/${downloadable.body.token}`],
      [viewOnly.body.token, false, `/shared/trajectory/${viewOnly.body.token}`],
    ],
  );
  t.is(listed.body.shares[1].expires_at, viewOnly.body.expires_at);

  const realClock = app.services.clock;
  app.services.clock = () => new Date(Date.now() + 2 * 3600_000);
  try {
    t.is((await client(app.url).request('GET', `/backend/engineer/trajectory/shared/${viewOnly.body.token}`)).status, 404, 'expired');
    t.is((await client(app.url).request('GET', `/backend/engineer/trajectory/shared/${downloadable.body.token}`)).status, 200, 'no expiry');
    t.deepEqual((await user.request('GET', `/backend/engineer/trajectory/files/${fileId}/shares`)).body.shares.map((share: { token: string }) => share.token), [downloadable.body.token], 'an expired link is not listed');
  } finally {
    app.services.clock = realClock;
  }
  t.is((await user.request('DELETE', `/backend/engineer/trajectory/share/${viewOnly.body.token}`)).status, 200);
  t.deepEqual((await user.request('GET', `/backend/engineer/trajectory/files/${fileId}/shares`)).body.shares.map((share: { token: string }) => share.token), [downloadable.body.token], 'a revoked link is not listed');
  t.is((await user.request('DELETE', `/backend/engineer/trajectory/files/${fileId}`)).status, 200);
  const gone = await client(app.url).request('GET', `/backend/engineer/trajectory/shared/${downloadable.body.token}`);
  t.is(gone.status, 404);
  t.is(gone.body.detail, '分享不存在或已过期');
});

test.serial('the public leaderboard ranks users by recorded sessions, counting a re-uploaded session once', async (t) => {
  const busy = await signUp(app.url, 'busyterminal');
  await busy.request('POST', '/backend/engineer/trajectory/files', session('lb-1', false));
  await busy.request('POST', '/backend/engineer/trajectory/files', session('lb-1'));
  await busy.request('POST', '/backend/engineer/trajectory/files', session('lb-2'));
  await app.settle();
  const board = await client(app.url).request('GET', '/backend/engineer/leaderboard');
  t.is(board.status, 200);
  const row = board.body.leaders.find((leader: { username: string }) => leader.username === 'busyterminal');
  t.like(row, { sessions: 2, events: 12 });
  t.is(board.body.leaders[0].rank, 1);
  t.is((await client(app.url).request('GET', '/backend/engineer/leaderboard?limit=0')).status, 422);
});
