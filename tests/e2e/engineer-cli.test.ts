/**
 * The "done means", end to end: `npm run cli -- chat` in a real terminal (a tmux pane)
 * against the started product, the session watched live at /engineer in Chromium, "list the files"
 * sent from the browser, the command the assistant proposes approved there and run in the terminal
 * (another one declined in the terminal, one in English in the browser), a command sent back, a reload in the middle of a
 * stream that loses nothing, and a demo started and stopped from the screen. Serves frontend/dist:
 * run `npm run build` first. Needs tmux and bubblewrap; says so and skips without them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { defaultSandbox } from '@scriptorium/infra/sandbox/bwrap';
import { screenshot, signedInPage } from '../support/browser.ts';
import { ownedCleanup } from '../support/children.ts';
import { productInBrowser } from '../support/browserProduct.ts';
import { signUp } from '../support/app.ts';
import { startMockOpenAI, type ChatBody } from '../support/mockOpenAI.ts';
import { eventually } from '../support/poll.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
})();
const sandboxProblem = await defaultSandbox.problem();
const ready = hasTmux && sandboxProblem === null;
if (!hasTmux) console.log('engineer CLI test skipped: tmux is not installed (apt-get install -y tmux)');
if (sandboxProblem) console.log(`engineer CLI test skipped: ${sandboxProblem.message}`);

const lastAsked = (body: ChatBody) => body.messages?.at(-1)?.content ?? '';
/** The model: a plan with a long step for the demo, short answers for the terminal's questions, and `ls -la` proposed for "list the files". */
const model = await startMockOpenAI({
  toolCalls: (body) => (body['tools'] && lastAsked(body).includes('list the files') ? [{ name: 'run_command', arguments: JSON.stringify({ command: 'ls -la' }) }] : undefined),
  reply: (body: ChatBody) => {
    const system = body.messages?.[0]?.content ?? '';
    if (system.includes('隔离的 Linux 工作区')) {
      return JSON.stringify({ steps: [{ thought: '先记下开始', command: 'echo started > started.txt' }, { thought: '一个很长的步骤', command: 'sleep 60' }, { thought: '不会到这里', command: 'echo never' }] });
    }
    const asked = lastAsked(body);
    return asked.includes('list the files') ? 'Let me list the files.' : `模拟回答：${asked.slice(0, 20)}`;
  },
});
const running = productInBrowser('engineer-cli', { LLM_BASE_URL: model.url, LLM_MODEL: 'mock' });
test.after.always(() => model.close());

const base = '/backend/api/ai-engineer';

(ready ? test.serial : test.serial.skip)('a terminal chat is watched and steered from the browser; a reload loses nothing; a demo starts and stops', async (t) => {
  const { product, browser } = running;
  const user = await signUp(product.url, 'terminaluser', 'terminal-password');
  const home = mkdtempSync(join(tmpdir(), 'scriptorium-tmux-'));
  const socket = `scriptorium-test-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  const pane = () => tmux('capture-pane', '-p', '-J', '-S', '-500', '-t', 'cli');
  const type = (text: string) => tmux('send-keys', '-t', 'cli', '-l', text);
  const enter = () => tmux('send-keys', '-t', 'cli', 'Enter');
  const paneShows = (pattern: RegExp, timeoutMs = 30_000) => eventually(() => pattern.exec(pane()) ?? undefined, timeoutMs, `the pane to show ${pattern}`);
  // The tmux server daemonises, so no ending of this process reaches it unless asked.
  const killServer = ownedCleanup(() => {
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
  });
  t.teardown(() => {
    killServer();
    rmSync(home, { recursive: true, force: true });
  });

  tmux('new-session', '-d', '-s', 'cli', '-x', '200', '-y', '60', '-c', ROOT, '-e', `SCRIPTORIUM_CONFIG=${join(home, 'config.json')}`);
  type(`npm run cli -- login --password --server ${product.url} --username terminaluser`);
  enter();
  await paneShows(/密码: /);
  type('terminal-password');
  enter();
  await paneShows(/已登录 http/);
  t.false(pane().includes('terminal-password'), 'the typed password is not echoed');

  type('npm run cli -- chat');
  enter();
  const watchUrl = (await paneShows(/实时查看：(\S+)/))[1]!;
  const sessionId = watchUrl.split('/').at(-1)!;
  await paneShows(/scriptorium> $/m);

  const { page, pageErrors } = await signedInPage(t, browser, user.token!);
  await page.goto(watchUrl.replace(/^https?:\/\/[^/]+/, product.url), { waitUntil: 'networkidle' });
  const tree = page.getByRole('tree');
  await page.locator('.engineer-live.is-live').waitFor();
  await page.getByText('还没有节点，等待智能体记录……').waitFor();

  // Typed in the terminal, seen in the browser as it happens.
  type('!echo hello-from-the-terminal');
  enter();
  await tree.getByText('$ echo hello-from-the-terminal').waitFor();
  await tree.getByRole('treeitem').filter({ hasText: /^输出\s*hello-from-the-terminal/ }).waitFor();
  type('事件溯源是什么？');
  enter();
  await tree.getByText('模拟回答：事件溯源是什么？').waitFor();
  await paneShows(/模拟回答：事件溯源是什么？/);

  // "list the files" from the browser: the assistant proposes `ls -la`, shown in the terminal and the
  // browser; approved in the browser and confirmed in the terminal, it runs there and its listing shows in both places.
  await page.getByRole('textbox', { name: '给智能体的话……' }).fill('list the files');
  await page.getByRole('button', { name: '发送' }).click();
  await paneShows(/\[浏览器\] list the files/);
  await paneShows(/Let me list the files\./);
  await paneShows(/助手建议运行：ls -la {2}运行？\[y\/N\]/);
  const proposal = page.locator('.engineer-proposal');
  await proposal.getByText('ls -la', { exact: true }).waitFor();
  await proposal.getByText('助手建议运行').waitFor();
  await tree.getByRole('treeitem').filter({ hasText: /^工具调用\s*ls -la\s*待批准/ }).waitFor();
  await page.locator('.engineer-head .engineer-status', { hasText: '等待输入' }).waitFor();
  await screenshot(page, 'engineer-cli-proposal-zh');
  await proposal.getByRole('button', { name: '批准运行' }).click();
  await paneShows(/\[浏览器\] 批准运行：在终端确认后才会运行\n(.*\n)*.*运行？\[y\/N\]\s*$/m);
  t.notRegex(pane(), /package\.json/, 'the browser’s approval alone runs nothing');
  type('y');
  enter();
  await paneShows(/\[浏览器\] 批准运行：在终端确认后才会运行\n(.*\n)*.*package\.json/);
  await proposal.waitFor({ state: 'detached' });
  await tree.getByText('$ ls -la', { exact: true }).waitFor();
  await tree.getByRole('treeitem').filter({ hasText: /^输出[\s\S]*package\.json/ }).first().waitFor();
  await page.locator('.engineer-command-list li', { hasText: 'list the files' }).getByText('完成').waitFor();
  await page.locator('.engineer-command-list li', { hasText: '批准运行' }).filter({ hasText: 'ls -la' }).getByText('完成').waitFor();
  await tree.getByRole('treeitem').filter({ hasText: /^工具调用\s*ls -la\s*已批准/ }).waitFor();
  await page.locator('.engineer-head .engineer-status', { hasText: '运行中' }).waitFor();
  const answered = (await user.request('GET', `${base}/sessions/${sessionId}/commands`)).body.commands.find((command: { content: string }) => command.content === 'list the files');
  t.regex(answered.result.result, /package\.json/, "the listing is the browser message's result");

  // Proposed from the terminal and declined there: the browser's buttons go away as it happens.
  type('please list the files again');
  enter();
  await paneShows(/助手建议运行：ls -la {2}运行？\[y\/N\]\s*$/m);
  await proposal.getByRole('button', { name: '批准运行' }).waitFor();
  type('n');
  enter();
  await paneShows(/已拒绝，命令没有运行。/);
  await proposal.waitFor({ state: 'detached' });
  await tree.getByText('已拒绝运行（终端）').waitFor();
  await tree.getByRole('treeitem').filter({ hasText: /^工具调用\s*ls -la\s*已拒绝/ }).waitFor();

  // And the command itself: the terminal asks, runs it once answered y, the browser shows its output.
  await page.getByRole('combobox', { name: '发送方式' }).click();
  await page.getByRole('option', { name: '运行命令' }).click();
  await page.getByRole('textbox', { name: '要在智能体终端运行的命令，如 npm test' }).fill('ls');
  await page.getByRole('button', { name: '发送' }).click();
  await paneShows(/运行浏览器发来的命令：ls {2}运行？\[y\/N\]/);
  type('y');
  enter();
  await paneShows(/\[浏览器\] \$ ls\n(.*\n)*.*package\.json/);
  await tree.getByText('$ ls', { exact: true }).waitFor();
  await tree.getByRole('treeitem').filter({ hasText: /^输出[\s\S]*package\.json/ }).last().waitFor();
  await page.locator('.engineer-command-list li', { has: page.locator('code', { hasText: /^ls$/ }) }).getByText('完成').waitFor();
  await screenshot(page, 'engineer-cli-zh');

  // A stream of steps from the terminal, and a reload in the middle of it.
  for (let step = 1; step <= 6; step++) {
    type(`!sleep 0.3; echo tick-${step}`);
    enter();
  }
  await tree.getByText('$ sleep 0.3; echo tick-2').waitFor();
  await page.reload({ waitUntil: 'domcontentloaded' });
  await paneShows(/tick-6\n/);
  const session = await eventually(async () => {
    const body = (await user.request('GET', `${base}/sessions/${sessionId}`)).body;
    return body.node_count >= 27 ? body : undefined;
  });
  await page.getByRole('tree', { name: `${session.node_count} 个节点` }).waitFor();
  // The tree renders the rows in view (and a dozen beyond): the ticks are the newest, at its end.
  await page.getByRole('tree').evaluate((tree) => tree.scrollTo({ top: tree.scrollHeight }));
  for (let step = 1; step <= 6; step++) await page.getByRole('tree').getByText(`$ sleep 0.3; echo tick-${step}`).waitFor();
  const nodes = (await user.request('GET', `${base}/sessions/${sessionId}/nodes/cursor?limit=200`)).body.nodes as Array<{ id: string }>;
  t.is(nodes.length, session.node_count, 'every node once after the reload');

  // In English: the same proposal, declined from the browser.
  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  await page.reload({ waitUntil: 'networkidle' });
  type('list the files one more time');
  enter();
  await proposal.getByRole('button', { name: 'Run it' }).waitFor();
  await proposal.getByText('The assistant proposes to run').waitFor();
  await screenshot(page, 'engineer-cli-proposal-en');
  await proposal.getByRole('button', { name: 'Decline' }).click();
  await paneShows(/\[浏览器\] 拒绝运行/);
  await proposal.waitFor({ state: 'detached' });
  // The CLI records its notes in Chinese; an English reader gets them in English (the newest rows are at the tree's end).
  await page.getByRole('tree').evaluate((tree) => tree.scrollTo({ top: tree.scrollHeight }));
  await page.getByRole('tree').getByText('Refused to run (answered in the browser)').waitFor();
  await page.evaluate(() => localStorage.setItem('app_language', 'zh'));
  await page.reload({ waitUntil: 'networkidle' });

  type('/exit');
  enter();
  await paneShows(/会话已记录，共 \d+ 个事件/);
  await page.locator('.engineer-head .engineer-status', { hasText: '已完成' }).waitFor();
  t.regex(pane(), /scriptorium> /, 'the terminal showed its prompt');

  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  await page.reload({ waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'AI-engineer sessions' }).waitFor();
  await page.getByRole('tree').getByText('$ ls', { exact: true }).waitFor();
  await screenshot(page, 'engineer-cli-en');

  // A demo from the screen: it plans, starts its long step, and the stop ends it there.
  await page.evaluate(() => localStorage.setItem('app_language', 'zh'));
  await page.goto(`${product.url}/engineer`, { waitUntil: 'networkidle' });
  await page.getByRole('textbox', { name: '任务描述' }).fill('写一个文件，然后等很久');
  await page.getByRole('button', { name: '开始演示' }).click();
  await page.waitForURL(/\/engineer\/[0-9a-f-]{36}$/);
  const demoId = page.url().split('/').at(-1)!;
  await page.getByRole('tree').getByText('$ sleep 60', { exact: true }).waitFor();
  await page.getByRole('tree').getByText('create started.txt').waitFor();
  await page.getByRole('combobox', { name: '发送方式' }).click();
  await page.getByRole('option', { name: '停止会话' }).click();
  const stoppedAt = Date.now();
  await page.getByRole('button', { name: '停止会话' }).click();
  await page.locator('.engineer-head .engineer-status', { hasText: '已停止' }).waitFor();
  await page.getByText('会话已结束，不能再发送。').waitFor();
  const terminals = await eventually(async () => {
    const body = (await user.request('GET', `${base}/demo/executions/${demoId}/terminals`)).body;
    return body.terminals.length === 2 ? body.terminals : undefined;
  });
  t.like(terminals[1], { command: 'sleep 60', finished_at: null });
  t.true(Date.now() - stoppedAt < 10_000, 'the stop ended the demo at once, not after its command');
  await screenshot(page, 'engineer-demo-stopped');
  t.deepEqual(pageErrors, []);
});
