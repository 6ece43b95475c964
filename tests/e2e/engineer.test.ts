/**
 * AI-engineer sessions in a real browser: the list with its status filter, a session's tree growing
 * live as an agent records it, a node's details, stats, input sent back, a long session kept light
 * by virtualisation, and the screen in English. Serves frontend/dist: run `npm run build` first.
 */
import { AxeBuilder } from '@axe-core/playwright';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot, signedInPage } from '../support/browser.ts';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let browser: Browser;
test.before(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
  await app?.stop();
});

const base = '/backend/api/ai-engineer';
const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

test('a user watches a session grow live, reads a node, sends input, and filters the list', async (t) => {
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
  await page.getByText('从左侧选择一个会话。').waitFor();
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

test('a long session keeps only the rows in view in the page; the screen reads in English', async (t) => {
  const user = await signUp(app.url, 'longrunner');
  const id = (await user.request('POST', `${base}/sessions`, { title: 'Long build' })).body.id;
  const start = Date.now() - 3_600_000;
  for (let batch = 0; batch < 6; batch++) {
    const nodes = Array.from({ length: 500 }, (_, index) => {
      const n = batch * 500 + index;
      return { id: `n${n}`, node_type: n % 2 ? 'output' : 'command', parent_id: n % 2 ? `n${n - 1}` : null, timestamp: new Date(start + n * 1000).toISOString(), payload: n % 2 ? { text: `step ${n} ok`, exit_code: 0 } : { command: `make step-${n}` } };
    });
    await user.request('POST', `${base}/sessions/${id}/nodes`, { nodes });
  }
  const { page, pageErrors } = await signedInPage(t, browser, user.token!);
  await page.addInitScript(() => localStorage.setItem('app_language', 'en'));
  await page.goto(`${app.url}/engineer/${id}`, { waitUntil: 'networkidle' });
  await page.getByRole('tree').getByText('$ make step-0').waitFor();
  t.true((await page.getByRole('treeitem').count()) < 100, 'only the rows in view are rendered');
  t.is(await page.locator('.engineer-stats dd').first().innerText(), '3000');
  await page.getByRole('heading', { name: 'AI-engineer sessions' }).waitFor();
  await page.getByRole('tree').evaluate((element) => (element.scrollTop = element.scrollHeight));
  await page.getByRole('tree').getByText('step 2999 ok').waitFor();
  await screenshot(page, 'engineer-long-en');
  t.deepEqual(pageErrors, []);
});

test('a user starts the demo and watches it work in its sandbox until it completes', async (t) => {
  const user = await signUp(app.url, 'demowatcher');
  const { page, pageErrors } = await signedInPage(t, browser, user.token!);
  await page.goto(`${app.url}/engineer`, { waitUntil: 'networkidle' });
  await page.getByRole('textbox', { name: '任务描述' }).fill('写一个统计字数的脚本并运行它');
  await page.getByRole('button', { name: '开始演示' }).click();
  await page.waitForURL(/\/engineer\/[0-9a-f-]{36}$/);
  const tree = page.getByRole('tree');
  await page.locator('.engineer-head .engineer-status', { hasText: '已完成' }).waitFor({ timeout: 30_000 });
  await tree.getByText('离线演示模板', { exact: true }).waitFor();
  await tree.getByText('create TASK.md').waitFor();
  await tree.getByText('$ ls -la', { exact: true }).waitFor();
  await tree.getByRole('treeitem').filter({ hasText: /^输出\s*lo/ }).click();
  await page.getByRole('complementary', { name: '节点详情' }).getByText('退出码 0').waitFor();
  t.is(await page.locator('.engineer-sessions li').count(), 1);
  await screenshot(page, 'engineer-demo');
  t.deepEqual(pageErrors, []);
});
