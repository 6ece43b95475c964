/**
 * CLI trajectories in a real browser: the sidebar summary, the list with favourites, a session's
 * timeline, download, sharing with download allowed, the link signed out, and revoking it.
 * Serves frontend/dist: run `npm run build` first.
 */
import { readFile } from 'node:fs/promises';
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

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const session = (id: string, query: string, ended: boolean) => ({
  metadata: { session_id: id, project_name: 'scriptorium' },
  events: [
    { event_type: 'session_start', timestamp: minutesAgo(30) },
    { event_type: 'user_query', timestamp: minutesAgo(29), query },
    { event_type: 'assistant_response', timestamp: minutesAgo(28), content: '先看令牌的 **exp** 字段，再确认服务器时钟。', model: 'offline', tokens: 120 },
    { event_type: 'command', timestamp: minutesAgo(27), command: 'npm test -- tests/http/auth.test.ts' },
    { event_type: 'command_output', timestamp: minutesAgo(26), content: '✔ forged, expired and unsigned tokens are refused\n1 test failed', exit_code: 1 },
    ...(ended ? [{ event_type: 'session_end', timestamp: minutesAgo(25) }] : []),
  ],
});

test('a user reads, favourites, downloads and shares the sessions the CLI recorded', async (t) => {
  const user = await signUp(app.url, 'terminaluser');
  await user.request('POST', '/backend/engineer/trajectory/files', session('s-1', '为什么登录接口返回 401？', true));
  await user.request('POST', '/backend/engineer/trajectory/files', session('s-2', '怎样给投影加索引？', false));
  const { page, pageErrors } = await signedInPage(t, browser, user.token!, { acceptDownloads: true });
  page.on('dialog', (dialog) => void dialog.accept());

  await page.goto(`${app.url}/cli`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'Scriptorium 命令行助手' }).waitFor();
  const panel = page.locator('.cli-panel');
  await panel.getByText('轨迹总数').waitFor();
  t.deepEqual(await panel.locator('.cli-panel-stats strong').allInnerTexts(), ['2', '1']);
  t.is(await panel.locator('.cli-recent li').count(), 2);
  await screenshot(page, 'trajectories-landing');

  await panel.getByRole('link', { name: /为什么登录接口返回 401？/ }).click();
  await page.waitForURL(/\/cli\/trajectories\?file_id=/);
  const detail = page.locator('.cli-detail');
  await detail.getByText('npm test -- tests/http/auth.test.ts').waitFor();
  t.true(await detail.getByText('退出码 1').isVisible());
  t.true(await detail.locator('.cli-answer strong').filter({ hasText: 'exp' }).isVisible(), 'the answer is rendered as Markdown');

  await page.getByRole('button', { name: '收藏' }).first().click();
  await page.getByRole('checkbox', { name: '只看收藏' }).check();
  t.is(await page.locator('.cli-files li').count(), 1);
  await page.getByRole('checkbox', { name: '只看收藏' }).uncheck();
  await page.getByRole('searchbox', { name: '搜索标题、项目或提问' }).fill('投影');
  t.is(await page.locator('.cli-files li').count(), 1);
  await page.getByRole('searchbox', { name: '搜索标题、项目或提问' }).fill('');
  await screenshot(page, 'trajectories-detail');

  const [file] = await Promise.all([page.waitForEvent('download'), detail.getByRole('button', { name: '下载' }).click()]);
  const lines = (await readFile((await file.path())!, 'utf8')).trim().split('\n');
  t.is(lines.length, 6);

  await detail.getByRole('button', { name: '分享' }).click();
  const dialog = page.locator('.share-link-dialog');
  await dialog.getByRole('button', { name: '创建分享链接' }).click();
  const link = await dialog.getByRole('textbox', { name: '分享链接' }).inputValue();
  t.regex(link, /\/shared\/trajectory\/[A-Za-z0-9_-]+$/);
  await screenshot(page, 'trajectories-share');

  const visitor = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'zh-CN', acceptDownloads: true });
  t.teardown(() => visitor.close());
  const shared = await visitor.newPage();
  await shared.goto(link, { waitUntil: 'networkidle' });
  await shared.getByRole('heading', { name: '为什么登录接口返回 401？' }).waitFor();
  const [sharedFile] = await Promise.all([shared.waitForEvent('download'), shared.getByRole('button', { name: '下载' }).click()]);
  t.is((await readFile((await sharedFile.path())!, 'utf8')).trim().split('\n').length, 6);
  await screenshot(shared, 'trajectories-shared');

  await dialog.getByRole('button', { name: '取消分享' }).click();
  await dialog.getByText('已取消分享，原链接失效').waitFor();
  await shared.reload({ waitUntil: 'networkidle' });
  await shared.getByRole('heading', { name: '分享不存在或已过期' }).waitFor();

  // The socket test page: heartbeats arrive, a malformed message gets an error and the socket stays up.
  await page.goto(`${app.url}/cli/test`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: '连接' }).click();
  await page.getByRole('status').filter({ hasText: '已连接' }).waitFor();
  await page.getByText('心跳 2 次').waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: '发送格式错误的消息' }).click();
  await page.locator('.cli-socket-log li.received').filter({ hasText: '消息格式不正确' }).waitFor();
  t.true(await page.getByRole('status').filter({ hasText: '已连接' }).isVisible(), 'the socket stays up');
  await screenshot(page, 'trajectories-socket-test');

  // The leaderboard is public.
  await shared.goto(`${app.url}/cli-leaderboard`, { waitUntil: 'networkidle' });
  await shared.getByRole('cell', { name: 'terminaluser' }).waitFor();
  await screenshot(shared, 'trajectories-leaderboard');
  t.deepEqual(pageErrors, []);
});
