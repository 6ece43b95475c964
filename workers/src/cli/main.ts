/**
 * The Scriptorium command-line assistant. Every session is recorded as a trajectory and uploaded
 * to the user's account, where /cli/trajectories lists it.
 *
 *   scriptorium login [--server URL] [--username NAME]      (password: prompt or SCRIPTORIUM_PASSWORD)
 *   scriptorium chat  [--project NAME]                      (a line asks; `!cmd` runs a command; /exit ends)
 *   scriptorium run   [--project NAME] -- <command…>         (runs one command and records it)
 *   scriptorium whoami | logout
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { OpenAICompatibleProvider } from '../model/openai.ts';
import { RecordedSession } from './session.ts';

interface Saved {
  server: string;
  username: string;
  token: string;
}

const configPath = () => process.env.SCRIPTORIUM_CONFIG ?? join(homedir(), '.scriptorium', 'config.json');
const out = (text: string) => process.stdout.write(text);
function fail(message: string): never {
  process.stderr.write(`scriptorium: ${message}\n`);
  process.exit(1);
}

function loadSaved(): Saved {
  try {
    return JSON.parse(readFileSync(configPath(), 'utf8')) as Saved;
  } catch {
    return fail('尚未登录，请先运行 scriptorium login');
  }
}

async function api(saved: Pick<Saved, 'server' | 'token'>, path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(new URL(`/backend${path}`, saved.server), { ...init, headers: { ...init.headers, authorization: `Bearer ${saved.token}` } });
  if (response.status === 401) fail('登录已失效，请重新运行 scriptorium login');
  return response;
}

/** Reads one line from the terminal; the typed password is not echoed when stdin is a terminal. */
async function prompt(question: string, secret = false): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  if (secret && process.stdin.isTTY) {
    const write = (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput.bind(rl);
    (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = (text) => write(text.startsWith(question) ? text : '');
  }
  const answer = await new Promise<string>((resolve) => rl.question(question, resolve));
  rl.close();
  if (secret && process.stdin.isTTY) out('\n');
  return answer.trim();
}

async function login(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { server: { type: 'string' }, username: { type: 'string' } } });
  const server = values.server ?? process.env.SCRIPTORIUM_SERVER ?? 'http://localhost:8080';
  const username = values.username ?? process.env.SCRIPTORIUM_USERNAME ?? (await prompt('用户名: '));
  const password = process.env.SCRIPTORIUM_PASSWORD ?? (await prompt('密码: ', true));
  const response = await fetch(new URL('/backend/auth/login', server), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ username, password }) });
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; detail?: unknown };
  if (!response.ok || !body.access_token) fail(typeof body.detail === 'string' ? body.detail : `登录失败（HTTP ${response.status}）`);
  mkdirSync(dirname(configPath()), { recursive: true, mode: 0o700 });
  writeFileSync(configPath(), JSON.stringify({ server, username, token: body.access_token } satisfies Saved), { mode: 0o600 });
  chmodSync(configPath(), 0o600);
  out(`已登录 ${server}，用户 ${username}\n`);
}

async function upload(saved: Saved, session: RecordedSession, sessionId: string, project: string): Promise<void> {
  try {
    const response = await api(saved, '/engineer/trajectory/files', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { session_id: sessionId, project_name: project }, events: session.events }),
    });
    if (!response.ok) process.stderr.write(`scriptorium: 轨迹上传失败（HTTP ${response.status}）\n`);
  } catch (error) {
    process.stderr.write(`scriptorium: 轨迹上传失败：${error instanceof Error ? error.message : String(error)}\n`);
  }
}

function openSession(saved: Saved): RecordedSession {
  const model = new OpenAICompatibleProvider({ baseUrl: new URL('/backend/engineer/v1', saved.server).toString(), model: 'scriptorium', apiKey: saved.token, maxAttempts: 2 });
  return new RecordedSession({ write: out, clock: () => new Date() }, model);
}

async function chat(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { project: { type: 'string' } } });
  const saved = loadSaved();
  const project = values.project ?? basename(process.cwd());
  const sessionId = randomUUID();
  const session = openSession(saved);
  out(`Scriptorium 命令行助手（${project}）。直接输入问题；!命令 运行命令；/exit 结束。\n`);
  const rl = createInterface({ input: process.stdin, terminal: false });
  for await (const raw of rl) {
    const line = raw.trim();
    if (!line) continue;
    if (line === '/exit' || line === '/quit') break;
    if (line.startsWith('!')) await session.run(line.slice(1).trim());
    else await session.ask(line);
    await upload(saved, session, sessionId, project);
  }
  session.end();
  await upload(saved, session, sessionId, project);
  out(`会话已记录，共 ${session.events.length} 个事件：${new URL('/cli/trajectories', saved.server)}\n`);
}

async function run(args: string[]): Promise<void> {
  const separator = args.indexOf('--');
  const { values } = parseArgs({ args: separator === -1 ? [] : args.slice(0, separator), options: { project: { type: 'string' } } });
  const command = (separator === -1 ? args : args.slice(separator + 1)).join(' ').trim();
  if (!command) fail('用法：scriptorium run [--project 名称] -- <命令>');
  const saved = loadSaved();
  const project = values.project ?? basename(process.cwd());
  const session = openSession(saved);
  const exitCode = await session.run(command);
  session.end();
  await upload(saved, session, randomUUID(), project);
  process.exitCode = exitCode;
}

async function whoami(): Promise<void> {
  const saved = loadSaved();
  const me = (await (await api(saved, '/auth/me')).json()) as { username?: string };
  out(`${me.username ?? saved.username} @ ${saved.server}\n`);
}

const commands: Record<string, (args: string[]) => Promise<void>> = {
  login,
  chat,
  run,
  whoami,
  logout: async () => {
    rmSync(configPath(), { force: true });
    out('已退出登录\n');
  },
};

const [name, ...rest] = process.argv.slice(2);
const command = name ? commands[name] : undefined;
if (!command) fail(`用法：scriptorium <${Object.keys(commands).join('|')}>`);
else await command(rest);
