/**
 * AI-engineer sessions in a real browser: the list with its status filter, a session's tree growing
 * live as an agent records it, a node's details, stats, input sent back, a long session kept light
 * by virtualisation, and the screen in English. Serves frontend/dist: run `npm run build` first.
 */
import { AxeBuilder } from '@axe-core/playwright';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { engineerStream } from '@scriptorium/domain/engineer/session';
import { screenshot, signedInPage, startBrowser } from '../support/browser.ts';
import { HeldSandbox } from '../support/heldSandbox.ts';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let browser: Browser;
test.before(async () => {
  app = await startTestApp();
  browser = await startBrowser();
});
test.after.always(async () => {
  await browser?.close();
  await app?.stop();
});

const base = '/backend/api/ai-engineer';
const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

test.serial('a user watches a session grow live, reads a node, sends input, and filters the list', async (t) => {
  const user = await signUp(app.url, 'watcher');
  const done = (await user.request('POST', `${base}/sessions`, { title: '已完成的会话' })).body.id;
  await user.request('POST', `${base}/sessions/${done}/nodes`, { nodes: [], status: 'completed' });
  const id = (await user.request('POST', `${base}/sessions`, { title: '修复登录 401', task_description: '登录接口在令牌过期时返回 401，查明原因并修复', source: 'cli' })).body.id;
  await user.request('POST', `${base}/sessions/${id}/nodes`, {
    nodes: [
      { id: 'q', node_type: 'message', timestamp: secondsAgo(120), payload: { role: 'user', text: '为什么登录接口返回 401？' } },
      { id: 'think', node_type: 'thought', parent_id: 'q', timestamp: secondsAgo(110), payload: { text: '先看令牌的 exp 字段，再确认服务器时钟。' }, tokens: 120 },
      { id: 'cmd', node_type: 'command', parent_id: 'q', timestamp: secondsAgo(100), payload: { command: 'npm test -- tests/http/auth.test.ts' } },
      { id: 'out', node_type: 'output', parent_id: 'cmd', status: 'failed', timestamp: secondsAgo(90), payload: { text: '✔ forged tokens are refused\n✘ expired tokens refresh\n1 test failed', exit_code: 1 } },
    ],
  });

  const { page, pageErrors } = await signedInPage(t, browser, user.token!);
  await page.goto(`${app.url}/cli`, { waitUntil: 'networkidle' });
  await page.getByRole('link', { name: '会话管理' }).click();
  await page.waitForURL(/\/engineer$/);
  await page.getByText('从列表中选择一个会话。').waitFor();
  await page.getByRole('link', { name: /修复登录 401/ }).click();
  await page.waitForURL(new RegExp(`/engineer/${id}$`));
  const tree = page.getByRole('tree');
  await tree.getByText('$ npm test -- tests/http/auth.test.ts').waitFor();
  await page.locator('.engineer-live.is-live').waitFor();
  t.is(await tree.getByRole('treeitem').count(), 4);
  t.is(await page.locator('.engineer-stats dd').first().innerText(), '4');

  await user.request('POST', `${base}/sessions/${id}/nodes`, {
    nodes: [{ id: 'fix', node_type: 'file_change', parent_id: 'q', timestamp: new Date().toISOString(), payload: { path: 'backend/src/auth/tokens.ts', change: 'modify', diff: '- if (exp < now)\n+ if (exp <= now)' } }],
    status: 'waiting_input',
  });
  await tree.getByText('modify backend/src/auth/tokens.ts').waitFor();
  await page.locator('.engineer-head .engineer-status', { hasText: '等待输入' }).waitFor();

  await tree.getByText('1 test failed').click();
  const detail = page.getByRole('complementary', { name: '节点详情' });
  await detail.getByText('退出码 1').waitFor();
  t.true(await detail.getByText('✘ expired tokens refresh', { exact: false }).isVisible());
  await tree.focus();
  await page.keyboard.press('ArrowUp');
  await detail.getByText('$ npm test -- tests/http/auth.test.ts').waitFor();
  await page.keyboard.press('ArrowLeft');
  await tree.getByText('1 test failed').waitFor({ state: 'detached' });
  await page.keyboard.press('ArrowRight');
  await tree.getByText('1 test failed').click();

  await page.getByRole('textbox', { name: '给智能体的话……' }).fill('请把修改提交');
  await page.getByRole('button', { name: '发送' }).click();
  await page.locator('.engineer-command-list li', { hasText: '请把修改提交' }).waitFor();
  await page.locator('.engineer-head .engineer-status', { hasText: '运行中' }).waitFor();
  const commands = (await user.request('GET', `${base}/sessions/${id}/commands`)).body.commands;
  t.like(commands[0], { command_type: 'message', content: '请把修改提交' });
  await screenshot(page, 'engineer-live');
  const { violations } = await new AxeBuilder({ page }).analyze();
  t.deepEqual(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), [], 'no serious accessibility violation in the live view');

  await page.getByRole('combobox', { name: '状态' }).click();
  await page.getByRole('option', { name: '已完成' }).click();
  await page.locator('.engineer-sessions li').filter({ hasText: '已完成的会话' }).waitFor();
  t.is(await page.locator('.engineer-sessions li').count(), 1);
  t.deepEqual(pageErrors, []);
});

test.serial('a session of 100 000 nodes scrolls to its end page by page, live nodes join without a refetch, in English', async (t) => {
  const user = await signUp(app.url, 'longrunner');
  const id = (await user.request('POST', `${base}/sessions`, { title: 'Long build' })).body.id as string;
  // Seeded straight into the log in agent-sized batches: the decider's path is tested elsewhere, this is about the screen.
  const total = 100_000;
  const start = Date.now() - 3_600_000;
  for (let batch = 0; batch < total / 500; batch++) {
    const nodes = Array.from({ length: 500 }, (_, index) => {
      const n = batch * 500 + index;
      const timestamp = new Date(start + n).toISOString();
      return n % 2
        ? { id: `n${n}`, node_type: 'output', parent_id: `n${n - 1}`, status: 'completed', timestamp, payload: { stream: 'combined', text: `step ${n} ok`, exit_code: 0 } }
        : { id: `n${n}`, node_type: 'command', parent_id: null, status: 'completed', timestamp, payload: { command: `make step-${n}` } };
    });
    const at = new Date().toISOString();
    await app.services.events.appendToStream(engineerStream(id), [{ type: 'EngineerNodesAppended', data: { sessionId: id, ownerId: user.userId, at, nodes }, metadata: { at, userId: user.userId } }]);
  }
  await app.settle();

  const { page, pageErrors } = await signedInPage(t, browser, user.token!);
  await page.addInitScript(() => {
    localStorage.setItem('app_language', 'en');
    const w = window as unknown as { longestTask: number };
    w.longestTask = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longestTask = Math.max(w.longestTask, entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  let cursorReads = 0;
  page.on('request', (request) => {
    if (request.url().includes(`/sessions/${id}/nodes/cursor`)) cursorReads++;
  });
  await page.goto(`${app.url}/engineer/${id}`, { waitUntil: 'networkidle' });
  const tree = page.getByRole('tree');
  await tree.getByText('$ make step-0', { exact: true }).waitFor();
  await page.getByRole('heading', { name: 'AI-engineer sessions' }).waitFor();
  t.regex(await page.locator('.engineer-loaded').innerText(), /^Loaded \d+ of 100000 nodes/);
  t.is(await page.locator('.engineer-stats dd').first().innerText(), '100000');
  await screenshot(page, 'engineer-long-start-en');

  const scrolling = Date.now();
  await page.waitForFunction(
    () => {
      const element = document.querySelector('[role=tree]')!;
      element.scrollTop = element.scrollHeight;
      return [...element.querySelectorAll('[role=treeitem]')].some((row) => row.textContent?.includes('step 99999 ok'));
    },
    null,
    { polling: 100 },
  );
  const scrolled = Date.now() - scrolling;
  await tree.getByText('step 99999 ok', { exact: true }).waitFor();
  t.true(await tree.getByText('step 99999 ok', { exact: true }).isVisible(), 'the last node is shown');
  t.true((await page.getByRole('treeitem').count()) < 100, 'only the rows in view are rendered');
  t.is(await page.locator('.engineer-loaded').count(), 0, 'every node is loaded');
  const longest = await page.evaluate(() => (window as unknown as { longestTask: number }).longestTask);
  t.log(`scrolled 100000 nodes in ${cursorReads} cursor pages, ${scrolled} ms; longest long task ${Math.round(longest)} ms`);
  console.log(`engineer tree: 100000 nodes in ${cursorReads} cursor pages, ${scrolled} ms; longest long task ${Math.round(longest)} ms`);

  const readsBefore = cursorReads;
  // Past the session's node bound, so also straight into the log; the socket reads the log either way.
  const at = new Date().toISOString();
  await app.services.events.appendToStream(engineerStream(id), [{ type: 'EngineerNodesAppended', data: { sessionId: id, ownerId: user.userId, at, nodes: [{ id: 'late', node_type: 'thought', parent_id: null, status: 'completed', timestamp: at, payload: { text: 'a node after the walk' } }] }, metadata: { at, userId: user.userId } }]);
  await page.getByRole('tree').evaluate((element) => (element.scrollTop = element.scrollHeight));
  await tree.getByText('a node after the walk').waitFor();
  t.is(cursorReads, readsBefore, 'the live node came over the socket, nothing was read again');
  await screenshot(page, 'engineer-long-en');
  t.deepEqual(pageErrors, []);
});

test.serial('a user starts the demo and watches it work in its sandbox until it completes', async (t) => {
  const user = await signUp(app.url, 'demowatcher');
  const { page, pageErrors } = await signedInPage(t, browser, user.token!);
  await page.goto(`${app.url}/engineer`, { waitUntil: 'networkidle' });
  await page.getByRole('textbox', { name: '任务描述' }).fill('写一个统计字数的脚本并运行它');
  await page.getByRole('button', { name: '开始演示' }).click();
  await page.waitForURL(/\/engineer\/[0-9a-f-]{36}$/);
  const tree = page.getByRole('tree');
  await page.locator('.engineer-head .engineer-status', { hasText: '已完成' }).waitFor();
  await tree.getByText('离线演示模板', { exact: true }).waitFor();
  await tree.getByText('create TASK.md').waitFor();
  await tree.getByText('create test/count.test.js').waitFor();
  await tree.getByText('$ node --test --test-reporter=spec', { exact: true }).waitFor();
  await tree.getByRole('treeitem').filter({ hasText: /^输出\s*TASK\.md: \d+ words/ }).click();
  await page.getByRole('complementary', { name: '节点详情' }).getByText('ℹ fail 0').waitFor();
  await page.getByRole('complementary', { name: '节点详情' }).getByText('退出码 0').waitFor();
  t.is(await page.locator('.engineer-sessions li').count(), 1);
  await screenshot(page, 'engineer-demo');
  t.deepEqual(pageErrors, []);
});

test.serial('an error node reads in the reader’s language when it carries a catalogue code, as recorded otherwise', async (t) => {
  const user = await signUp(app.url, 'errorreader');
  const id = (await user.request('POST', `${base}/sessions`, { title: 'Slow step' })).body.id as string;
  await user.request('POST', `${base}/sessions/${id}/nodes`, {
    nodes: [
      { id: 'cmd', node_type: 'command', timestamp: secondsAgo(30), payload: { command: 'sleep 60' } },
      { id: 'limit', node_type: 'error', parent_id: 'cmd', status: 'failed', timestamp: secondsAgo(20), payload: { message: '命令超过时间限制（10 秒），已停止', code: 'engineer.sandbox_time', params: { seconds: 10 } } },
      { id: 'own', node_type: 'error', parent_id: 'cmd', status: 'failed', timestamp: secondsAgo(10), payload: { message: 'linker: out of disk', code: 'cli.link_failed' } },
    ],
    status: 'failed',
  });
  const { page, pageErrors } = await signedInPage(t, browser, user.token!);
  const tree = page.getByRole('tree');
  await page.goto(`${app.url}/engineer/${id}`, { waitUntil: 'networkidle' });
  await tree.getByText('命令超过时间限制（10 秒），已停止').waitFor();

  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  await page.reload({ waitUntil: 'networkidle' });
  const english = 'The command ran past its time limit (10 s) and was stopped';
  await tree.getByText(english).click();
  await page.getByRole('complementary', { name: 'Node details' }).getByText(english).waitFor();
  t.true(await tree.getByText('linker: out of disk').isVisible(), 'a code the catalogue lacks shows the recorded message');
  t.is(await page.locator('.engineer-live').count(), 0, 'an ended session shows no connection state');
  await screenshot(page, 'engineer-error-en');
  t.deepEqual(pageErrors, []);
});

test.serial('a node updated under its id changes live in the tree and its details; a replayed older version changes nothing; in English too', async (t) => {
  const user = await signUp(app.url, 'nodeupdates');
  const id = (await user.request('POST', `${base}/sessions`, { title: '跑测试' })).body.id as string;
  const running = { id: 'cmd', node_type: 'command', status: 'running', timestamp: secondsAgo(60), payload: { command: 'npm test' } };
  await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [running] });
  const { page, pageErrors } = await signedInPage(t, browser, user.token!);
  await page.goto(`${app.url}/engineer/${id}`, { waitUntil: 'networkidle' });
  const tree = page.getByRole('tree');
  const row = tree.getByRole('treeitem').filter({ hasText: '$ npm test' });
  await row.locator('.engineer-node-status', { hasText: '进行中' }).waitFor();
  await page.locator('.engineer-live.is-live').waitFor();
  await row.click();
  const detail = page.getByRole('complementary', { name: '节点详情' });
  await detail.getByText('进行中').waitFor();

  await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [{ ...running, status: 'failed', payload: { command: 'npm test -- --bail' } }] });
  await tree.getByText('$ npm test -- --bail').waitFor();
  await row.locator('.engineer-node-status', { hasText: '失败' }).waitFor();
  await detail.getByText('修订 2').waitFor();
  t.true(await detail.getByText('$ npm test -- --bail').isVisible(), 'the details show the new version');
  await screenshot(page, 'engineer-node-updated');

  // The replay is answered and changes nothing: a node sent after it arrives while the tree still shows the update.
  t.is((await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [running] })).status, 200);
  await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [{ id: 'after', node_type: 'thought', timestamp: secondsAgo(1), payload: { text: '重放之后' } }] });
  await tree.getByText('重放之后').waitFor();
  t.is(await row.locator('.engineer-node-status').innerText(), '失败');
  t.is(await tree.getByText('$ npm test', { exact: true }).count(), 0);

  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  await page.reload({ waitUntil: 'networkidle' });
  await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes: [{ ...running, status: 'completed', payload: { command: 'npm test -- --bail' }, revision: 3 }] });
  await tree.getByRole('treeitem').filter({ hasText: '$ npm test -- --bail' }).click();
  await page.getByRole('complementary', { name: 'Node details' }).getByText('Revision 3').waitFor();
  t.is(await row.locator('.engineer-node-status').count(), 0, 'a completed node carries no status mark');
  await screenshot(page, 'engineer-node-updated-en');
  t.deepEqual(pageErrors, []);
});

test.serial('a third demo while two run is refused with the reason beside the form, in Chinese and English', async (t) => {
  const sandbox = new HeldSandbox();
  const held = await startTestApp({}, { agents: { sandbox } });
  t.teardown(async () => {
    sandbox.release();
    await held.stop();
  });
  const user = await signUp(held.url, 'demolimit');
  for (const task of ['第一个', '第二个']) t.is((await user.request('POST', `${base}/start-demo`, { task_description: task })).status, 201);
  const { page, pageErrors } = await signedInPage(t, browser, user.token!);
  await page.goto(`${held.url}/engineer`, { waitUntil: 'networkidle' });
  await page.getByRole('textbox', { name: '任务描述' }).fill('第三个');
  await page.getByRole('button', { name: '开始演示' }).click();
  await page.getByRole('alert').filter({ hasText: '你已有 2 个演示在运行，请等其结束或停止一个后再开始' }).waitFor();
  t.regex(page.url(), /\/engineer$/, 'no demo was opened');
  await screenshot(page, 'engineer-demo-limit');

  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  await page.reload({ waitUntil: 'networkidle' });
  await page.getByRole('textbox', { name: 'Task', exact: true }).fill('a third one');
  await page.getByRole('button', { name: 'Start the demo' }).click();
  await page.getByRole('alert').filter({ hasText: 'You already have 2 demos running; wait for one to end or stop one first' }).waitFor();
  await screenshot(page, 'engineer-demo-limit-en');
  t.deepEqual(pageErrors, []);
});
