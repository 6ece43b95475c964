import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { signUp, startTestApp } from '../support/app.ts';

const MAIN = join(import.meta.dirname, '../../workers/src/cli/main.ts');

function cli(args: string[], env: Record<string, string>, input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

test('the CLI logs in, chats, runs a command, and each session arrives as a trajectory', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'terminal', 'terminal-password');
  const home = mkdtempSync(join(tmpdir(), 'scriptorium-cli-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const env = { SCRIPTORIUM_CONFIG: join(home, 'config.json') };

  const denied = await cli(['login', '--server', app.url, '--username', 'terminal'], { ...env, SCRIPTORIUM_PASSWORD: 'wrong' });
  t.is(denied.code, 1);
  t.regex(denied.stderr, /用户名或密码错误/);
  const login = await cli(['login', '--server', app.url, '--username', 'terminal'], { ...env, SCRIPTORIUM_PASSWORD: 'terminal-password' });
  t.is(login.code, 0, login.stderr);
  t.is(statSync(env.SCRIPTORIUM_CONFIG).mode & 0o777, 0o600, 'the token is readable by its owner only');
  t.regex((await cli(['whoami'], env)).stdout, /terminal @/);

  const chat = await cli(['chat', '--project', 'demo'], env, '事件溯源是什么？\n!node -e "console.log(6*7)"\n/exit\n');
  t.is(chat.code, 0, chat.stderr);
  t.true(chat.stdout.includes('42'), 'the command’s output is shown');
  const run = await cli(['run', '--project', 'demo', '--', 'node -e "process.exit(3)"'], env);
  t.is(run.code, 3, 'run exits with the command’s code');

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

  t.is((await cli(['logout'], env)).code, 0);
  t.regex((await cli(['whoami'], env)).stderr, /尚未登录/);
});
