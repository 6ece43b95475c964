import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { client, signUp, startTestApp, type Client } from '../support/app.ts';
import { owned } from '../support/children.ts';
import { eventually } from '../support/poll.ts';
import { openSocket, openSocketAt } from '../support/socket.ts';
import { CLOSE_FORBIDDEN, CLOSE_UNAUTHORIZED } from '@scriptorium/domain/protocol/ws';

const until = <T>(probe: () => Promise<T | undefined>) => eventually(probe, 60_000);

const MAIN = join(import.meta.dirname, '../../workers/src/cli/main.ts');

/**
 * The CLI as a child process. Given the test, it is killed when the test ends: a test that fails
 * half-way leaves no chat waiting for input, which would keep the test process (and a CI slot) alive.
 */
function spawnCli(args: string[], env: Record<string, string>, t?: { teardown(fn: () => void): void }) {
  const child = owned(spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] }));
  t?.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => (output.stdout += chunk));
  child.stderr.on('data', (chunk) => (output.stderr += chunk));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, ...output })));
  return { child, output, exited };
}

function cli(args: string[], env: Record<string, string>, input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { child, exited } = spawnCli(args, env);
  child.stdin.end(input);
  return exited;
}

test('the CLI logs in, chats, runs a command, and each session arrives as a trajectory', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'terminal', 'terminal-password');
  const home = mkdtempSync(join(tmpdir(), 'scriptorium-cli-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const env = { SCRIPTORIUM_CONFIG: join(home, 'config.json') };

  const denied = await cli(['login', '--password', '--server', app.url, '--username', 'terminal'], { ...env, SCRIPTORIUM_PASSWORD: 'wrong' });
  t.is(denied.code, 1);
  t.regex(denied.stderr, /用户名或密码错误/);
  const login = await cli(['login', '--password', '--server', app.url, '--username', 'terminal'], { ...env, SCRIPTORIUM_PASSWORD: 'terminal-password' });
  t.is(login.code, 0, login.stderr);
  t.is(statSync(env.SCRIPTORIUM_CONFIG).mode & 0o777, 0o600, 'the token is readable by its owner only');
  t.regex((await cli(['whoami'], env)).stdout, /terminal @/);

  const chat = await cli(['chat', '--project', 'demo'], env, '事件溯源是什么？\n!node -e "console.log(6*7)"\n/exit\n');
  t.is(chat.code, 0, chat.stderr);
  t.true(chat.stdout.includes('42'), 'the command’s output is shown');
  const run = await cli(['run', '--project', 'demo', '--', 'node -e "process.exit(3)"'], env);
  t.is(run.code, 3, 'run exits with the command’s code');
  await app.settle();
  const chatTask = (await user.request('GET', '/backend/api/tasks/summary')).body.tasks.find((item: { task_id: string }) => item.task_id.startsWith('ai_chat-'));
  t.like(chatTask, { current_progress: 1, target_progress: 3 }, 'the question answered in the terminal counts toward the chat task; the run asked nothing');

  const list = await user.request('GET', '/backend/engineer/trajectory/files');
  t.like(list.body, { total: 2, active_sessions: 0 });
  const chatFile = list.body.files.find((file: { title: string }) => file.title === '事件溯源是什么？');
  t.truthy(chatFile);
  t.like(chatFile.metadata, { project_name: 'demo' });
  const detail = (await user.request('GET', `/backend/engineer/trajectory/files/${chatFile.file_id}`)).body;
  t.deepEqual(detail.events.map((event: { event_type: string }) => event.event_type), ['session_start', 'user_query', 'assistant_response', 'command', 'command_output', 'session_end']);
  t.like(detail.events[4], { exit_code: 0, content: '42\n' });
  t.true(detail.events[2].content.length > 0, 'the answer is recorded');
  const runFile = list.body.files.find((file: { file_id: string }) => file.file_id !== chatFile.file_id);
  const ran = (await user.request('GET', `/backend/engineer/trajectory/files/${runFile.file_id}`)).body;
  t.like(ran.events[2], { event_type: 'command_output', exit_code: 3 });

  const token = (JSON.parse(readFileSync(env.SCRIPTORIUM_CONFIG, 'utf8')) as { token: string }).token;
  t.is((await cli(['logout'], env)).code, 0);
  t.regex((await cli(['whoami'], env)).stderr, /尚未登录/);
  t.is((await client(app.url, token).request('GET', '/backend/auth/me')).status, 401, 'logout ends the password sign-in on the server too');
});

test('a password login is listed under the apps with this machine’s name and the assistant’s scopes only, and logout revokes it there and says so', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'listed', 'listed-password');
  const home = mkdtempSync(join(tmpdir(), 'scriptorium-cli-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const env = { SCRIPTORIUM_CONFIG: join(home, 'config.json'), LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '' };
  const signIns = async () => (await user.request('GET', '/backend/auth/app-sign-ins')).body.sign_ins as Array<{ id: string; client_name_en: string; device_name: string; scope: string }>;

  t.is((await cli(['login', '--password', '--server', app.url, '--username', 'listed'], { ...env, SCRIPTORIUM_PASSWORD: 'listed-password' })).code, 0);
  const [listed] = await signIns();
  t.like(listed, { client_name_en: 'Scriptorium command-line assistant', device_name: hostname(), scope: 'engineer audit:read' });
  const token = (JSON.parse(readFileSync(env.SCRIPTORIUM_CONFIG, 'utf8')) as { token: string }).token;
  const cliUser = client(app.url, token);
  const session = await cliUser.request('POST', '/backend/api/ai-engineer/sessions', { title: 'cli' });
  t.is(session.status, 201);
  const socket = await openSocketAt(app.url, `/backend/api/ai-engineer/ws/sessions/${session.body.id}`, token);
  await socket.next((m) => m.type === 'subscribed');
  t.like((await cliUser.request('PATCH', `/backend/users/${user.userId}`, { nickname: 'taken over' })).body, { code: 'auth.scope_insufficient' }, 'no account rights');
  t.is((await (await openSocket(app.url, 'client-listed-cli', token)).closed).code, CLOSE_FORBIDDEN, 'no chats');

  const logout = await cli(['logout'], env);
  t.is(logout.code, 0, logout.stderr);
  t.is(logout.stdout, 'Signed out; this sign-in is revoked on the server\n');
  t.deepEqual(await signIns(), []);
  t.is((await client(app.url, token).request('GET', '/backend/auth/me')).status, 401);
  t.like(await socket.closed, { code: CLOSE_UNAUTHORIZED });
  t.like((await app.services.events.readStream(`appsignin-${listed!.id}`)).at(-1), { type: 'AppSignInRevoked', data: { reason: 'client' } });
});

test("every chat and run is a live engineer session; the browser's commands run in the terminal and their results come back", async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'live', 'live-password');
  const home = mkdtempSync(join(tmpdir(), 'scriptorium-cli-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const env = { SCRIPTORIUM_CONFIG: join(home, 'config.json') };
  t.regex((await cli(['--help'], env)).stdout, /scriptorium chat/, 'help needs no login');
  t.regex((await cli(['chat', '--help'], env)).stdout, /scriptorium run/);
  t.is((await cli(['login', '--password', '--server', app.url, '--username', 'live'], { ...env, SCRIPTORIUM_PASSWORD: 'live-password' })).code, 0);

  const ran = await cli(['run', '--', 'false'], env);
  t.is(ran.code, 1);
  t.regex(ran.stdout, /\[退出码 1\]/, 'a failing command shows its exit code');
  const base = '/backend/api/ai-engineer';
  const [runSession] = (await user.request('GET', `${base}/sessions`)).body.sessions;
  t.like(runSession, { title: 'false', status: 'failed', node_count: 2 });
  const trajectories = (await user.request('GET', '/backend/engineer/trajectory/files')).body.files;
  t.is(trajectories[0].title, 'false', 'a run is titled by its command');

  const { child, output, exited } = spawnCli(['chat', '--project', 'demo'], env, t);
  child.stdin.write('/help\n!node -e "process.exit(2)"\n');
  const chatSession = await until(async () => (await user.request('GET', `${base}/sessions?status=running`)).body.sessions[0]);
  await until(async () => ((await user.request('GET', `${base}/sessions/${chatSession.id}`)).body.node_count >= 2 ? true : undefined));
  // A command from the browser waits for the terminal's y: until then it has no result and nothing ran.
  const refusedCommand = (await user.request('POST', `${base}/sessions/${chatSession.id}/commands`, { command_type: 'run', content: 'node -e "console.log(5*5)"' })).body;
  await until(async () => (output.stdout.includes('运行浏览器发来的命令：node -e "console.log(5*5)"  运行？[y/N]') ? true : undefined));
  t.falsy((await user.request('GET', `${base}/sessions/${chatSession.id}/commands`)).body.commands.find((c: any) => c.id === refusedCommand.id).result);
  child.stdin.write('n\n');
  const refused = await until(async () => (await user.request('GET', `${base}/sessions/${chatSession.id}/commands`)).body.commands.find((c: any) => c.id === refusedCommand.id && c.result));
  t.like(refused.result, { status: 'failed', result: '', error_message: '终端拒绝运行浏览器发来的命令' });
  t.notRegex(output.stdout, /^25$/m, 'the refused command did not run');
  const command = (await user.request('POST', `${base}/sessions/${chatSession.id}/commands`, { command_type: 'run', content: 'node -e "console.log(6*7)"' })).body;
  await until(async () => (output.stdout.includes('运行浏览器发来的命令：node -e "console.log(6*7)"') ? true : undefined));
  t.falsy((await user.request('GET', `${base}/sessions/${chatSession.id}/commands`)).body.commands.find((c: any) => c.id === command.id).result);
  child.stdin.write('y\n');
  const done = await until(async () => (await user.request('GET', `${base}/sessions/${chatSession.id}/commands`)).body.commands.find((c: any) => c.id === command.id && c.result));
  t.like(done.result, { status: 'completed', result: '42\n' });
  t.is(done.delivered_to.length, 1);
  t.regex(output.stdout, /^42$/m, 'a command that runs prints its output on a line of its own (as the refused one did not)');
  child.stdin.write('/exit\n');
  const chat = await exited;
  t.is(chat.code, 0, chat.stderr);
  t.regex(output.stdout, /!命令 运行命令（如 !npm test）/, '/help is answered locally');
  t.regex(output.stdout, /\[退出码 2\]/);
  t.regex(output.stdout, /\[浏览器\] \$ node/);

  const ended = (await user.request('GET', `${base}/sessions/${chatSession.id}`)).body;
  t.is(ended.status, 'completed', '/exit ends the session as completed');
  const nodes = (await user.request('GET', `${base}/sessions/${chatSession.id}/nodes?sort_order=asc`)).body.nodes;
  t.deepEqual(nodes.map((node: any) => node.node_type), ['command', 'output', 'command', 'output']);
  t.like(nodes[1], { parent_id: nodes[0].id, status: 'failed', payload: { exit_code: 2 } });
  t.like(nodes[3], { payload: { text: '42\n', exit_code: 0 } });
});

test('a chat started with --allow-browser-commands runs what the browser sends, and what it approves, without asking', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'optedin', 'optedin-password');
  const home = mkdtempSync(join(tmpdir(), 'scriptorium-cli-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const env = { SCRIPTORIUM_CONFIG: join(home, 'config.json') };
  t.is((await cli(['login', '--password', '--server', app.url, '--username', 'optedin'], { ...env, SCRIPTORIUM_PASSWORD: 'optedin-password' })).code, 0);
  t.regex((await cli(['--help'], env)).stdout, /--allow-browser-commands/, 'the flag is in the help');
  const base = '/backend/api/ai-engineer';
  const { child, output, exited } = spawnCli(['chat', '--allow-browser-commands'], env, t);
  const session = await until(async () => (await user.request('GET', `${base}/sessions?status=running`)).body.sessions[0]);
  const command = (await user.request('POST', `${base}/sessions/${session.id}/commands`, { command_type: 'run', content: 'node -e "console.log(6*7)"' })).body;
  const done = await until(async () => (await user.request('GET', `${base}/sessions/${session.id}/commands`)).body.commands.find((c: any) => c.id === command.id && c.result));
  t.like(done.result, { status: 'completed', result: '42\n' });
  t.regex(output.stdout, /已允许浏览器直接运行命令/);
  t.false(output.stdout.includes('运行浏览器发来的命令'), 'nothing was asked');
  await user.request('POST', `${base}/sessions/${session.id}/commands`, { command_type: 'message', content: 'list the files' });
  const proposal = await until(async () => (await user.request('GET', `${base}/sessions/${session.id}/nodes?sort_order=asc`)).body.nodes.find((node: any) => node.node_type === 'tool_call'));
  const approve = (await user.request('POST', `${base}/sessions/${session.id}/commands`, { command_type: 'approve', content: proposal.id })).body;
  const ran = await until(async () => (await user.request('GET', `${base}/sessions/${session.id}/commands`)).body.commands.find((c: any) => c.id === approve.id && c.result));
  t.regex(ran.result.result, /package\.json/, 'the approved listing ran');
  t.false(output.stdout.includes('在终端确认后才会运行'), 'the approval was not asked again');
  child.stdin.end('/exit\n');
  t.is((await exited).code, 0);
});

test('a command the assistant proposes runs only once the terminal approves it, the browser’s approval too; a refusal from either runs nothing', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'approver', 'approver-password');
  const home = mkdtempSync(join(tmpdir(), 'scriptorium-cli-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const env = { SCRIPTORIUM_CONFIG: join(home, 'config.json') };
  t.is((await cli(['login', '--password', '--server', app.url, '--username', 'approver'], { ...env, SCRIPTORIUM_PASSWORD: 'approver-password' })).code, 0);
  const base = '/backend/api/ai-engineer';

  // Piped answers: the first proposal is approved, the second refused.
  const piped = await cli(['chat', '--project', 'demo'], env, 'list the files\ny\n当前目录是哪里\nn\n/exit\n');
  t.is(piped.code, 0, piped.stderr);
  t.regex(piped.stdout, /Offline rule \(no model configured\): suggest running `ls -la`/);
  t.regex(piped.stdout, /助手建议运行：ls -la {2}运行？\[y\/N\]/);
  t.regex(piped.stdout, /package\.json/, 'the approved listing ran');
  t.regex(piped.stdout, /助手建议运行：pwd/);
  t.regex(piped.stdout, /已拒绝，命令没有运行。/);
  const [first] = (await user.request('GET', `${base}/sessions`)).body.sessions;
  const nodes = (await user.request('GET', `${base}/sessions/${first.id}/nodes?sort_order=asc`)).body.nodes;
  t.deepEqual(
    nodes.map((node: any) => node.node_type),
    ['message', 'message', 'tool_call', 'command', 'output', 'message', 'message', 'tool_call', 'message'],
  );
  t.like(nodes[2], { parent_id: nodes[0].id, status: 'pending', payload: { name: 'run_command', arguments: { command: 'ls -la' } } });
  t.like(nodes[3], { parent_id: nodes[2].id, payload: { command: 'ls -la' } });
  t.like(nodes[8], { parent_id: nodes[7].id, payload: { role: 'system', text: '已拒绝运行（终端）', code: 'engineer.run_refused_terminal' } });
  const trajectory = (await user.request('GET', '/backend/engineer/trajectory/files')).body.files[0];
  const events = (await user.request('GET', `/backend/engineer/trajectory/files/${trajectory.file_id}`)).body.events;
  t.like(events.find((event: any) => event.event_type === 'tool_call'), { command: 'ls -la' });
  t.like(events.find((event: any) => event.event_type === 'tool_result'), { content: '已批准运行（终端）' });

  // From the browser: a message, its proposal approved there and confirmed in the terminal; the result reaches the message; a second answer is refused.
  const { child, output, exited } = spawnCli(['chat', '--project', 'demo'], env, t);
  const session = await until(async () => (await user.request('GET', `${base}/sessions?status=running`)).body.sessions[0]);
  const message = (await user.request('POST', `${base}/sessions/${session.id}/commands`, { command_type: 'message', content: 'list the files' })).body;
  const proposal = await until(async () => (await user.request('GET', `${base}/sessions/${session.id}/nodes?sort_order=asc`)).body.nodes.find((node: any) => node.node_type === 'tool_call'));
  t.is((await user.request('GET', `${base}/sessions/${session.id}`)).body.status, 'waiting_input');
  await until(async () => (/助手建议运行：ls -la/.test(output.stdout) ? true : undefined));
  const unknown = await user.request('POST', `${base}/sessions/${session.id}/commands`, { command_type: 'approve', content: 'n999' });
  t.is(unknown.status, 422);
  const approve = (await user.request('POST', `${base}/sessions/${session.id}/commands`, { command_type: 'approve', content: proposal.id })).body;
  const again = await user.request('POST', `${base}/sessions/${session.id}/commands`, { command_type: 'reject', content: proposal.id });
  t.is(again.status, 409);
  t.is(again.body.code, 'engineer.proposal_answered');
  await until(async () => (output.stdout.includes('[浏览器] 批准运行：在终端确认后才会运行') ? true : undefined));
  t.notRegex(output.stdout, /package\.json/, 'nothing ran on the browser’s word alone');
  child.stdin.write('y\n');
  const commands = await until(async () => {
    const all = (await user.request('GET', `${base}/sessions/${session.id}/commands`)).body.commands;
    return all.every((command: any) => command.result) ? all : undefined;
  });
  const answered = Object.fromEntries(commands.map((command: any) => [command.id, command.result]));
  t.like(answered[message.id], { status: 'completed' });
  t.regex(answered[message.id].result, /package\.json/, 'the listing is the message’s result in the browser');
  t.is(answered[approve.id].result, answered[message.id].result);
  t.regex(output.stdout, /\[浏览器\] 批准运行/);
  t.regex(output.stdout, /package\.json/, 'and it ran in the terminal');
  const tree = (await user.request('GET', `${base}/sessions/${session.id}/nodes?sort_order=asc`)).body.nodes;
  t.like(tree.find((node: any) => node.node_type === 'command'), { parent_id: proposal.id, payload: { command: 'ls -la' } });
  t.is((await user.request('GET', `${base}/sessions/${session.id}`)).body.status, 'running');

  // Approved in the browser, declined in the terminal: nothing runs, and the approval is answered as refused.
  await user.request('POST', `${base}/sessions/${session.id}/commands`, { command_type: 'message', content: '当前目录是哪里' });
  const second = await until(async () => (await user.request('GET', `${base}/sessions/${session.id}/nodes?sort_order=asc`)).body.nodes.filter((node: any) => node.node_type === 'tool_call')[1]);
  await until(async () => (/助手建议运行：pwd/.test(output.stdout) ? true : undefined));
  const approvePwd = (await user.request('POST', `${base}/sessions/${session.id}/commands`, { command_type: 'approve', content: second.id })).body;
  await until(async () => (output.stdout.split('[浏览器] 批准运行：在终端确认后才会运行').length === 3 ? true : undefined));
  child.stdin.write('n\n');
  const refused = await until(async () => (await user.request('GET', `${base}/sessions/${session.id}/commands`)).body.commands.find((c: any) => c.id === approvePwd.id && c.result));
  t.like(refused.result, { status: 'failed', error_message: '终端拒绝运行浏览器发来的命令' });
  t.false(output.stdout.includes(process.cwd() + '\n'), 'pwd did not run');
  child.stdin.end('/exit\n');
  t.is((await exited).code, 0);
});

test('Ctrl-C ends a chat as a completed session', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'interrupt', 'interrupt-password');
  const home = mkdtempSync(join(tmpdir(), 'scriptorium-cli-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const env = { SCRIPTORIUM_CONFIG: join(home, 'config.json') };
  await cli(['login', '--password', '--server', app.url, '--username', 'interrupt'], { ...env, SCRIPTORIUM_PASSWORD: 'interrupt-password' });
  const { child, exited } = spawnCli(['chat'], env, t);
  const session = await until(async () => (await user.request('GET', '/backend/api/ai-engineer/sessions')).body.sessions[0]);
  child.kill('SIGINT');
  t.is((await exited).code, 0);
  t.is((await user.request('GET', `/backend/api/ai-engineer/sessions/${session.id}`)).body.status, 'completed');
});

/** The test plays the browser: it opens the printed address as a signed-in user, answers the consent page and follows the redirect. */
async function playBrowser(output: { stdout: string }, user: Client, decision: 'approve' | 'deny'): Promise<Response> {
  const printed = await until(async () => /https?:\/\/\S+\/oauth\/authorize\?\S+/.exec(output.stdout)?.[0]);
  const params = Object.fromEntries(new URL(printed).searchParams);
  const answered = await user.request('POST', '/backend/oauth/authorize', { ...params, decision });
  if (answered.status !== 200) throw new Error(`consent: ${answered.status} ${JSON.stringify(answered.body)}`);
  return fetch(answered.body.redirect_to);
}

test('login signs in through the browser with PKCE for the assistant’s scopes only, refreshes an expired token, and logout revokes the grant', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'browser', 'browser-password');
  const home = mkdtempSync(join(tmpdir(), 'scriptorium-cli-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const env = { SCRIPTORIUM_CONFIG: join(home, 'config.json') };

  const denied = spawnCli(['login', '--server', app.url, '--no-browser'], env, t);
  t.is((await playBrowser(denied.output, user, 'deny')).status, 400);
  const refused = await denied.exited;
  t.is(refused.code, 1);
  t.regex(refused.stderr, /已在浏览器中拒绝授权/);

  const login = spawnCli(['login', '--server', app.url, '--no-browser'], env, t);
  const landing = await playBrowser(login.output, user, 'approve');
  t.is(landing.status, 200);
  t.regex(await landing.text(), /命令行助手已登录/);
  const done = await login.exited;
  t.is(done.code, 0, done.stderr);
  t.regex(done.stdout, /请在浏览器中打开以下地址/);
  t.regex(done.stdout, /已登录 .*用户 browser/);
  t.is(statSync(env.SCRIPTORIUM_CONFIG).mode & 0o777, 0o600);
  const saved = JSON.parse(readFileSync(env.SCRIPTORIUM_CONFIG, 'utf8'));
  t.like(saved, { server: app.url, username: 'browser', token_endpoint: `${app.url}/backend/oauth/token` });
  t.truthy(saved.refresh_token);
  t.like(JSON.parse(Buffer.from(saved.token.split('.')[1], 'base64url').toString()), { client_id: 'scriptorium-cli', scope: 'engineer audit:read' });
  const [grant] = (await user.request('GET', '/backend/oauth/grants')).body.grants;
  t.like(grant, { client_id: 'scriptorium-cli', scope: 'engineer audit:read' }, 'the narrowest scopes that serve the assistant');

  // An access token past its expiry is renewed with the refresh token, which rotates.
  writeFileSync(env.SCRIPTORIUM_CONFIG, JSON.stringify({ ...saved, expires_at: new Date(Date.now() - 1000).toISOString() }));
  t.regex((await cli(['whoami'], env)).stdout, /browser @/);
  const renewed = JSON.parse(readFileSync(env.SCRIPTORIUM_CONFIG, 'utf8'));
  t.not(renewed.refresh_token, saved.refresh_token);
  t.not(renewed.token, saved.token);
  t.true(Date.parse(renewed.expires_at) > Date.now());

  t.is((await cli(['logout'], env)).code, 0);
  t.deepEqual((await user.request('GET', '/backend/oauth/grants')).body.grants, [], 'logout revokes the grant on the server');
  const stale = await fetch(`${app.url}/backend/auth/me`, { headers: { authorization: `Bearer ${renewed.token}` } });
  t.is(stale.status, 401);
});

test('the CLI follows LANG and --lang: English help and refusals for an English locale, Chinese by default', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-lang-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { SCRIPTORIUM_CONFIG: join(dir, 'config.json'), LC_ALL: '', LC_MESSAGES: '' };
  t.regex((await cli(['--help'], { ...env, LANG: 'en_US.UTF-8' })).stdout, /Scriptorium command-line assistant/);
  t.regex((await cli(['whoami'], { ...env, LANG: 'en_US.UTF-8' })).stderr, /Not signed in: run scriptorium login first/);
  t.regex((await cli(['whoami', '--lang', 'zh'], { ...env, LANG: 'en_US.UTF-8' })).stderr, /尚未登录/);
  t.regex((await cli(['--lang', 'en', 'whoami'], { ...env, LANG: 'C.UTF-8' })).stderr, /Not signed in/);
  t.regex((await cli(['whoami'], { ...env, LANG: 'C.UTF-8' })).stderr, /尚未登录/);
});
