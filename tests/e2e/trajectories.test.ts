/**
 * CLI trajectories in a real browser: the sidebar summary, the list with favourites, a session's
 * timeline, download, sharing with download allowed, the link signed out, and revoking it.
 * Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import { browserSuite, downloaded, screenshot, SCREENSHOTS, signedInPage } from '../support/browser.ts';
import { signUp } from '../support/app.ts';

const suite = browserSuite();

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
  const user = await signUp(suite.app.url, 'terminaluser');
  await user.request('POST', '/backend/engineer/trajectory/files', session('s-1', '为什么登录接口返回 401？', true));
  await user.request('POST', '/backend/engineer/trajectory/files', session('s-2', '怎样给投影加索引？', false));
  const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!, { acceptDownloads: true });
  page.on('dialog', (dialog) => void dialog.accept());

  await page.goto(`${suite.app.url}/cli`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'Scriptorium 命令行助手' }).waitFor();
  const panel = page.locator('.cli-panel');
  await panel.getByText('轨迹总数').waitFor();
  t.deepEqual(await panel.locator('.cli-panel-stats strong').allInnerTexts(), ['2', '1']);
  t.is(await panel.locator('.cli-recent li').count(), 2);
  t.is(await page.locator('.cli-steps code').first().innerText(), `npm run cli -- login --server ${suite.app.url}`, 'the address this server is reached at');
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
  const lines = (await downloaded(file)).toString('utf8').trim().split('\n');
  t.is(lines.length, 6);

  await detail.getByRole('button', { name: '分享', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '分享轨迹' });
  await dialog.getByText('这条轨迹还没有分享链接。').waitFor();
  await dialog.getByRole('button', { name: '创建分享链接' }).click();
  await dialog.getByText('分享链接创建成功').waitFor();
  const link = await dialog.getByRole('textbox', { name: '分享链接' }).inputValue();
  t.regex(link, /\/shared\/trajectory\/[A-Za-z0-9_-]+$/);
  await screenshot(page, 'trajectories-share');

  const visitor = await suite.browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'zh-CN', acceptDownloads: true });
  t.teardown(() => visitor.close());
  const shared = await visitor.newPage();
  await shared.goto(link, { waitUntil: 'networkidle' });
  await shared.getByRole('heading', { name: '为什么登录接口返回 401？' }).waitFor();
  const [sharedFile] = await Promise.all([shared.waitForEvent('download'), shared.getByRole('button', { name: '下载' }).click()]);
  t.is((await downloaded(sharedFile)).toString('utf8').trim().split('\n').length, 6);
  await screenshot(shared, 'trajectories-shared');

  // Later: the link is still there, in the dialog and on the page, and can be revoked from either.
  await page.keyboard.press('Escape');
  await page.reload({ waitUntil: 'networkidle' });
  const shares = detail.locator('.cli-shares');
  await shares.getByRole('heading', { name: '分享链接（1）' }).waitFor();
  t.is(await shares.getByRole('textbox', { name: '分享链接' }).inputValue(), link);
  t.true(await shares.getByText('可下载文件').isVisible());
  await screenshot(page, 'trajectories-shares-page');
  await detail.getByRole('button', { name: '分享', exact: true }).click();
  t.is(await dialog.getByRole('textbox', { name: '分享链接' }).inputValue(), link, 'the dialog shows the existing link');
  await dialog.getByRole('checkbox', { name: '允许下载轨迹文件' }).uncheck();
  await dialog.getByRole('button', { name: '创建分享链接' }).click();
  await dialog.getByRole('textbox', { name: '分享链接' }).nth(1).waitFor();
  await screenshot(page, 'trajectories-share-existing');
  const viewOnly = await dialog.getByRole('textbox', { name: '分享链接' }).first().inputValue();
  await dialog.locator('.share-list li').filter({ has: page.locator(`input[value="${viewOnly}"]`) }).getByRole('button', { name: '取消分享' }).click();
  await dialog.getByText('已取消分享，原链接失效').waitFor();
  t.is(await dialog.getByRole('textbox', { name: '分享链接' }).count(), 1);
  await page.keyboard.press('Escape');
  await shares.getByRole('button', { name: '取消分享' }).click();
  await page.getByText('已取消分享，原链接失效').first().waitFor();
  await shares.waitFor({ state: 'detached' });

  // A revoked link says the share has ended, with the way home.
  await shared.reload({ waitUntil: 'networkidle' });
  await shared.getByRole('heading', { name: '这个分享已结束' }).waitFor();
  await shared.getByRole('link', { name: '返回首页' }).waitFor();
  await screenshot(shared, 'trajectories-shared-revoked');

  // The same screens in English.
  await user.request('POST', '/backend/engineer/trajectory/share', { file_id: new URL(page.url()).searchParams.get('file_id'), share_settings: { allow_download: false }, expires_in: 7 * 86_400 });
  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  await page.reload({ waitUntil: 'networkidle' });
  await shares.getByRole('heading', { name: 'Share link (1)' }).waitFor();
  await screenshot(page, 'trajectories-shares-page-en');
  await detail.getByRole('button', { name: 'Share', exact: true }).click();
  await page.getByRole('dialog', { name: 'Share trajectory' }).getByText('View only').waitFor();
  await screenshot(page, 'trajectories-share-existing-en');
  await page.keyboard.press('Escape');
  await page.evaluate(() => localStorage.setItem('app_language', 'zh'));

  // The socket test page: heartbeats arrive, a malformed message gets an error and the socket stays up.
  await page.goto(`${suite.app.url}/cli/test`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: '连接' }).click();
  await page.getByRole('status').filter({ hasText: '已连接' }).waitFor();
  await page.getByText('心跳 2 次').waitFor();
  await page.getByRole('button', { name: '发送格式错误的消息' }).click();
  await page.locator('.cli-socket-log li.received').filter({ hasText: '消息格式不正确' }).waitFor();
  t.true(await page.getByRole('status').filter({ hasText: '已连接' }).isVisible(), 'the socket stays up');
  await screenshot(page, 'trajectories-socket-test');

  // The leaderboard is public.
  await shared.goto(`${suite.app.url}/cli-leaderboard`, { waitUntil: 'networkidle' });
  await shared.getByRole('cell', { name: 'terminaluser' }).waitFor();
  await screenshot(shared, 'trajectories-leaderboard');
  t.deepEqual(pageErrors, []);
});

test('the CLI docs are in the reader’s language and nothing is cut off, at 1440 and 1024 wide', async (t) => {
  for (const language of ['zh', 'en'] as const) {
    for (const width of [1440, 1024]) {
      const context = await suite.browser.newContext({ viewport: { width, height: 2000 }, locale: 'zh-CN' });
      await context.addInitScript((chosen) => localStorage.setItem('app_language', chosen), language);
      const page = await context.newPage();
      await page.goto(`${suite.app.url}/cli/docs`, { waitUntil: 'networkidle' });
      await page.getByRole('heading', { name: language === 'zh' ? 'CLI 文档' : 'CLI documentation', level: 1 }).waitFor();
      const cut = await page.evaluate(() =>
        [...document.querySelectorAll('.cli-docs *')].filter((element) => element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== 'visible').map((element) => element.textContent?.slice(0, 60)),
      );
      t.deepEqual(cut, [], `${language} ${width}: nothing scrolls sideways`);
      const notes = await page.locator('.cli-table td.muted').allInnerTexts();
      for (const note of notes) t.is(/\p{Script=Han}/u.test(note), language === 'zh', `${language}: ${note}`);
      const sample = await page.locator('.cli-jsonl').innerText();
      t.is(/\p{Script=Han}/u.test(sample), language === 'zh', `${language}: the sample`);
      await page.screenshot({ path: `${SCREENSHOTS}cli-docs-${language}-${width}.png` });
      if (width === 1024) {
        await page.goto(`${suite.app.url}/cli`, { waitUntil: 'networkidle' });
        await page.locator('.cli-steps code').first().waitFor();
        await page.screenshot({ path: `${SCREENSHOTS}cli-landing-${language}-${width}.png` });
      }
      await context.close();
    }
  }
});
