import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { owned } from '../../../tests/support/children.ts';

const MAIN = join(import.meta.dirname, 'main.ts');

interface Received {
  path: string;
  body: any;
  authorization?: string;
}

const bodyOf = async (request: IncomingMessage): Promise<string> => {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
};

/** Just enough of the server for login and run: it signs in alice and keeps what the CLI sends. */
async function fakeServer(t: ExecutionContext): Promise<{ url: string; received: Received[]; logins: URLSearchParams[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const logins: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    void bodyOf(request).then((text) => {
      const path = request.url ?? '';
      response.setHeader('content-type', 'application/json');
      if (path === '/backend/auth/login') {
        const form = new URLSearchParams(text);
        logins.push(form);
        const known = form.get('username') === 'alice' && form.get('password') === 'Passw0rd!23';
        response.statusCode = known ? 200 : 401;
        response.end(JSON.stringify(known ? { access_token: 'token-of-alice' } : { detail: '用户名或密码错误' }));
        return;
      }
      received.push({ path, body: text ? JSON.parse(text) : null, ...(request.headers.authorization !== undefined && { authorization: request.headers.authorization }) });
      response.end(JSON.stringify({ commands: [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, logins, close };
}

function configIn(t: ExecutionContext): string {
  const home = mkdtempSync(join(tmpdir(), 'scriptorium-cli-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  return join(home, 'config.json');
}

function cli(args: string[], env: Record<string, string>, input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = owned(spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

test('a piped login answers each question with the next line', async (t) => {
  const server = await fakeServer(t);
  const config = configIn(t);
  const login = await cli(['login', '--password', '--server', server.url], { SCRIPTORIUM_CONFIG: config }, 'alice\nPassw0rd!23\n');
  t.is(login.code, 0, login.stderr);
  t.is(login.stdout, `用户名: \n密码: \n已登录 ${server.url}，用户 alice\n`);
  t.like(JSON.parse(readFileSync(config, 'utf8')), { server: server.url, username: 'alice', token: 'token-of-alice' });
});

test('a login whose input ends before an answer says so and fails', async (t) => {
  const server = await fakeServer(t);
  const config = configIn(t);
  const noPassword = await cli(['login', '--password', '--server', server.url], { SCRIPTORIUM_CONFIG: config }, 'alice\n');
  t.is(noPassword.code, 1);
  t.regex(noPassword.stderr, /输入已结束，没有读到密码/);
  const nothing = await cli(['login', '--password', '--server', server.url], { SCRIPTORIUM_CONFIG: config });
  t.is(nothing.code, 1);
  t.regex(nothing.stderr, /输入已结束，没有读到用户名/);
  t.false(existsSync(config));
});

async function signedIn(t: ExecutionContext): Promise<{ env: Record<string, string>; received: Received[]; server: Awaited<ReturnType<typeof fakeServer>> }> {
  const server = await fakeServer(t);
  const env = { SCRIPTORIUM_CONFIG: configIn(t) };
  t.is((await cli(['login', '--password', '--server', server.url, '--username', 'alice'], { ...env, SCRIPTORIUM_PASSWORD: 'Passw0rd!23' })).code, 0);
  return { env, received: server.received, server };
}

/** The command as the engineer session, its command node and the uploaded trajectory show it. */
function recorded(received: Received[]): { session: string; node: string; title: string; event: string } {
  const session = received.find((request) => request.path === '/backend/api/ai-engineer/sessions')!.body;
  const node = received.flatMap((request) => request.body?.nodes ?? []).find((node: any) => node.node_type === 'command');
  const trajectory = received.findLast((request) => request.path === '/backend/engineer/trajectory/files')!.body;
  const event = trajectory.events.find((event: any) => event.event_type === 'command');
  return { session: session.title, node: node.payload.command, title: trajectory.title, event: event.command };
}

test('run with several arguments runs them as typed, with no shell between, and records them shell-quoted', async (t) => {
  const { env, received } = await signedIn(t);
  const printed = await cli(['run', '--', 'printf', '%s\\n', 'hello world'], env);
  t.is(printed.code, 0, printed.stderr);
  t.is(printed.stdout, 'hello world\n');
  const shown = "printf '%s\\n' 'hello world'";
  t.deepEqual(recorded(received), { session: shown, node: shown, title: shown, event: shown });

  received.length = 0;
  const script = await cli(['run', '--', 'sh', '-c', 'echo first; echo second; echo "it\'s third"'], env);
  t.is(script.stdout, "first\nsecond\nit's third\n");
  t.is(recorded(received).title, `sh -c 'echo first; echo second; echo "it'\\''s third"'`);
});

test('run with one argument runs that command line in the shell, shown as typed', async (t) => {
  const { env, received } = await signedIn(t);
  const ran = await cli(['run', '--', 'echo one && echo two | tr a-z A-Z'], env);
  t.is(ran.stdout, 'one\nTWO\n');
  t.is(recorded(received).title, 'echo one && echo two | tr a-z A-Z');
});

test('a program that cannot be started says why', async (t) => {
  const { env } = await signedIn(t);
  const missing = await cli(['run', '--', 'no-such-program-here', 'an argument'], env);
  t.is(missing.code, 127);
  t.regex(missing.stdout, /no-such-program-here ENOENT/);
});

test('what the CLI says around a command and at an OAuth login follows --lang and LANG', async (t) => {
  const { env, received } = await signedIn(t);
  const english = await cli(['--lang', 'en', 'run', '--', 'sh -c "exit 3"'], env);
  t.is(english.code, 3);
  t.is(english.stdout, '[exit code 3]\n');
  t.is(received.find((request) => request.path === '/backend/api/ai-engineer/sessions')!.body.task_description, `scriptorium run (${basename(process.cwd())})`);
  received.length = 0;
  const chinese = await cli(['run', '--', 'sh -c "exit 3"'], { ...env, LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' });
  t.is(chinese.stdout, '[退出码 3]\n');
  t.is(received.find((request) => request.path === '/backend/api/ai-engineer/sessions')!.body.task_description, `scriptorium run（${basename(process.cwd())}）`);

  // The fake server has no OAuth metadata: the browser login's refusal is worded in the user's language.
  const { url } = await fakeServer(t);
  const noOAuth = await cli(['login', '--server', url, '--no-browser'], { ...env, LANG: 'en_GB.UTF-8', LC_ALL: '', LC_MESSAGES: '' });
  t.is(noOAuth.code, 1);
  t.regex(noOAuth.stderr, new RegExp(`${url} offers no OAuth sign-in \\(HTTP 200\\); use scriptorium login --password instead`));
  const zhNoOAuth = await cli(['--lang', 'zh', 'login', '--server', url, '--no-browser'], env);
  t.regex(zhNoOAuth.stderr, /未提供 OAuth 授权服务（HTTP 200），可改用 scriptorium login --password/);
});

test('a password login names the app and this machine, so the web page lists it, and asks for the assistant’s scopes only', async (t) => {
  const { server } = await signedIn(t);
  t.is(server.logins[0]!.get('client_id'), 'scriptorium-cli');
  t.is(server.logins[0]!.get('device_name'), hostname());
  t.is(server.logins[0]!.get('scope'), 'engineer audit:read');
});

test('logout signs the token out on the server and says so, in the user’s language', async (t) => {
  const { env, received } = await signedIn(t);
  const zh = await cli(['logout'], { ...env, LANG: 'zh_CN.UTF-8', LC_ALL: '', LC_MESSAGES: '' });
  t.is(zh.code, 0, zh.stderr);
  t.is(zh.stdout, '已退出登录，服务器上的这次登录已撤销\n');
  t.deepEqual(
    received.filter((request) => request.path === '/backend/auth/logout').map((request) => request.authorization),
    ['Bearer token-of-alice'],
  );
  t.false(existsSync(env.SCRIPTORIUM_CONFIG!));

  const again = await signedIn(t);
  const en = await cli(['--lang', 'en', 'logout'], again.env);
  t.is(en.stdout, 'Signed out; this sign-in is revoked on the server\n');
});

test('a logout that cannot reach the server removes the local token and says the server was not told', async (t) => {
  const { env, server } = await signedIn(t);
  await server.close();
  const en = await cli(['logout'], { ...env, LANG: 'en_US.UTF-8', LC_ALL: '', LC_MESSAGES: '' });
  t.is(en.code, 0);
  t.is(en.stdout, '');
  t.is(
    en.stderr,
    `scriptorium: Removed the token saved here, but the server was not told (cannot reach ${server.url}): the sign-in stays valid until it expires; revoke it under “Authorised apps” in the account panel on the web page\n`,
  );
  t.false(existsSync(env.SCRIPTORIUM_CONFIG!));

  const zh = await signedIn(t);
  await zh.server.close();
  const chinese = await cli(['--lang', 'zh', 'logout'], zh.env);
  t.is(chinese.stderr, `scriptorium: 已删除本机保存的令牌，但没有通知到服务器（无法连接 ${zh.server.url}）：这次登录在到期前仍然有效，可在网页账户面板的「已授权的应用」中撤销\n`);
  t.false(existsSync(zh.env.SCRIPTORIUM_CONFIG!));
});
