/**
 * The cognition screens in a real browser on the offline engine: a new user draws a cognition from
 * two notes, reads it with its citations, shares it (public) and edits it; a signed-out visitor
 * browses and searches the platform and opens the shared link; the user collects it (then renames
 * the collection and takes it out again), extracts one from a web page through the side panel,
 * synthesizes the two, and deletes the result.
 * Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PageFetcher } from '@scriptorium/infra/fetch/fetcher';
import { screenshot, signedInPage, startBrowser } from '../support/browser.ts';
import { client, signUp, startTestApp, type TestApp } from '../support/app.ts';
import { BATTERY_NOTES, cognitionFromNotes } from '../support/cognition.ts';
import { ARTICLE_TITLE, startWebServer, type WebServer } from '../support/webServer.ts';

const PASSWORD = 'correct-horse-1';

let app: TestApp;
let web: WebServer;
let browser: Browser;

test.before(async () => {
  web = await startWebServer();
  app = await startTestApp({}, { agents: { fetcher: new PageFetcher({ allowHosts: ['localhost'] }) } });
  browser = await startBrowser();
});

test.after.always(async () => {
  await browser?.close();
  await app?.stop();
  await web?.close();
});

const shoot = (page: Page, name: string) => screenshot(page, `cognition-${name}`);

async function newPage(context: BrowserContext, errors: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  return page;
}

async function register(page: Page, username: string): Promise<string> {
  await page.goto(`${app.url}/register`, { waitUntil: 'networkidle' });
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('昵称').fill('读者');
  await page.getByLabel('邮箱').fill(`${username}@example.com`);
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByLabel('确认密码').fill(PASSWORD);
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await page.waitForURL(/\/research/);
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  if (!token) throw new Error('no token after registering');
  return token;
}

const sidePanel = (page: Page) => page.getByRole('region', { name: '认知平台' });

test.serial('extract, read, share, browse signed out, collect, extract a page and synthesize', async (t) => {
  const errors: string[] = [];
  const context = await browser.newContext({ viewport: { width: 1440, height: 960 }, locale: 'zh-CN' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
  const page = await newPage(context, errors);

  // A new user with two notes, and a cognition drawn from them as the notes page will ask for it.
  const username = `thinker${Date.now().toString(36)}`;
  const token = await register(page, username);
  const user = client(app.url, token);
  const cognitionId = await cognitionFromNotes(user, BATTERY_NOTES);

  // The platform has nothing public yet; the user's own cognition is under "my cognition".
  await page.goto(`${app.url}/cognition`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: '还没有公开的认知' }).waitFor();
  // Starting a synthesis with nothing public to pick from turns to the user's own.
  await sidePanel(page).getByRole('button', { name: '综合认知' }).click();
  await page.getByRole('button', { name: '我的认知', pressed: true }).waitFor();
  await page.locator(`[data-cognition-id="${cognitionId}"]`).waitFor();
  await sidePanel(page).getByRole('button', { name: '取消综合' }).click();
  t.true(await page.locator(`[data-cognition-id="${cognitionId}"]`).getByText('私密').isVisible(), 'created private');
  await shoot(page, 'platform-mine');

  // The display: title, insights, the cited body and its sources; the owner's own view counts none.
  await page.locator(`[data-cognition-id="${cognitionId}"] h3 a`).click();
  await page.waitForURL(new RegExp(`/cognition/display\\?id=${cognitionId}$`));
  const detail = (await user.request('GET', `/backend/api/cognition/${cognitionId}`)).body;
  await page.getByRole('heading', { name: detail.title, level: 1 }).waitFor();
  t.is(await page.locator('.cog-insights li').count(), detail.insights.length, 'every insight is listed');
  t.is(await page.locator('.cog-source').count(), detail.sources.length, 'every source is listed');
  t.true(await page.locator('.cog-source', { hasText: '钠电池走访' }).isVisible(), 'the notes are named as sources');
  await page.locator('.cog-content a[href="#cognition-source-2"]').first().click();
  await page.locator('#cognition-source-2.is-flashing').waitFor();
  t.regex(page.url(), /\/cognition\/display\?id=/, 'a citation stays on the page');
  await shoot(page, 'citations');
  t.is((await user.request('GET', `/backend/api/cognition/${cognitionId}`)).body.view_count, 0, 'the owner opening it counts no view');
  await page.evaluate(() => window.scrollTo(0, 0));
  await shoot(page, 'display');

  // Share: making it public hands out the link and copies it.
  await page.getByRole('button', { name: '分享', exact: true }).click();
  const share = page.getByRole('dialog', { name: '分享认知' });
  await share.getByText('这条认知目前是私密的').waitFor();
  await share.getByRole('button', { name: '公开并生成链接' }).click();
  await share.getByText('链接已复制').waitFor();
  const link = await share.getByRole('textbox', { name: '分享链接' }).inputValue();
  t.is(link, `${app.url}/share/cognition/${cognitionId}`);
  t.is(await page.evaluate(() => navigator.clipboard.readText()), link, 'the link is on the clipboard');
  await shoot(page, 'share-dialog');
  await share.getByRole('button', { name: '关闭' }).last().click();
  // One name for the switch; its state says public or not.
  t.is(await page.getByRole('switch', { name: '设为公开' }).getAttribute('aria-checked'), 'true', 'the switch shows it public');

  // Edit title, summary and tags.
  await page.getByRole('button', { name: '编辑', exact: true }).click();
  const edit = page.getByRole('dialog', { name: '编辑认知' });
  await edit.getByLabel('标题').fill('');
  await edit.getByRole('button', { name: '保存' }).click();
  await edit.getByText('请填写标题').waitFor();
  await edit.getByLabel('标题').fill('钠离子电池的储能机会');
  await edit.getByLabel('标签').fill('钠离子电池，储能、低温性能');
  await shoot(page, 'edit-dialog');
  await edit.getByRole('button', { name: '保存' }).click();
  await page.getByRole('heading', { name: '钠离子电池的储能机会', level: 1 }).waitFor();
  t.true(await page.locator('.cog-article .cog-tag', { hasText: '低温性能' }).isVisible());

  // Signed out: browse, search live and by Enter, clear; actions send to sign-in; the shared link opens full-screen.
  const visitorContext = await browser.newContext({ viewport: { width: 1440, height: 960 }, locale: 'zh-CN' });
  const visitor = await newPage(visitorContext, errors);
  await visitor.goto(`${app.url}/cognition`, { waitUntil: 'networkidle' });
  const card = visitor.locator(`[data-cognition-id="${cognitionId}"]`);
  await card.waitFor();
  t.true(await card.getByText(username).isVisible(), 'the card names its owner');
  t.true(await card.getByText(/刚刚|分钟前/).isVisible(), 'the card tells how recent it is');
  t.is(await visitor.getByRole('button', { name: '我的认知' }).count(), 0, 'no "mine" scope signed out');
  await shoot(visitor, 'platform-signed-out');
  const search = sidePanel(visitor).getByRole('searchbox', { name: '搜索认知' });
  await search.pressSequentially('低温', { delay: 40 });
  await visitor.waitForURL(/\/cognition\?q=%E4%BD%8E%E6%B8%A9$/);
  await visitor.getByText('“低温”的搜索结果').waitFor();
  await card.waitFor();
  await shoot(visitor, 'search');
  await search.fill('量子计算');
  await search.press('Enter');
  await visitor.getByRole('heading', { name: '没有找到相关认知' }).waitFor();
  await sidePanel(visitor).getByRole('button', { name: '清空' }).click();
  await card.waitFor();
  t.is(new URL(visitor.url()).search, '', 'clearing drops the query');
  await sidePanel(visitor).getByRole('button', { name: 'URL认知提取' }).click();
  await visitor.waitForURL(/\/login\?redirect=%2Fcognition$/);
  await visitor.goto(`${app.url}/cognition/library`);
  await visitor.waitForURL(/\/login\?redirect=%2Fcognition%2Flibrary$/);

  await visitor.goto(`${app.url}/cognition/display?id=${cognitionId}`, { waitUntil: 'networkidle' });
  await visitor.getByRole('button', { name: '登录后收藏' }).waitFor();
  t.is(await visitor.getByRole('button', { name: '分享', exact: true }).count(), 0, 'only the owner shares');
  await shoot(visitor, 'display-signed-out');

  await visitor.goto(`${app.url}/share/cognition/${cognitionId}`, { waitUntil: 'networkidle' });
  await visitor.getByRole('heading', { name: '钠离子电池的储能机会', level: 1 }).waitFor();
  t.is(await visitor.locator('.sidebar').count(), 0, 'the shared page is full-screen');
  t.true(await visitor.getByText(`${username} 分享的认知`).isVisible());
  await shoot(visitor, 'shared');
  await visitor.goto(`${app.url}/share/cognition/00000000-0000-4000-8000-000000000000`, { waitUntil: 'networkidle' });
  await visitor.getByRole('heading', { name: '该认知不存在或未公开' }).waitFor();
  await visitor.getByRole('link', { name: '返回首页' }).waitFor();
  await shoot(visitor, 'shared-missing');
  await visitorContext.close();

  // A collection, created in the library, then the cognition added to it from its page.
  await sidePanel(page).getByRole('link', { name: '我的认知库' }).click();
  await page.getByRole('tab', { name: '收藏夹' }).click();
  await page.getByRole('button', { name: '新建收藏夹' }).click();
  const create = page.getByRole('dialog', { name: '新建收藏夹' });
  await create.getByLabel('名称').fill('储能研究');
  await create.getByLabel('描述').fill('钠电池与储能政策');
  await create.getByRole('button', { name: '创建' }).click();
  await page.getByRole('link', { name: '打开收藏夹“储能研究”' }).waitFor();
  await page.goto(`${app.url}/cognition/display?id=${cognitionId}`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: '加入收藏夹' }).click();
  const collect = page.getByRole('dialog', { name: '加入收藏夹' });
  await collect.getByRole('button', { name: '加入 储能研究' }).click();
  await collect.getByRole('button', { name: '已加入 储能研究' }).waitFor();
  await shoot(page, 'collect-dialog');
  await collect.getByRole('button', { name: '完成' }).click();
  await sidePanel(page).getByRole('link', { name: '我的认知库' }).click();
  await page.getByRole('tab', { name: '收藏夹' }).click();
  await page.getByRole('link', { name: '打开收藏夹“储能研究”' }).click();
  await page.getByRole('heading', { name: '储能研究', level: 1 }).waitFor();
  await page.locator(`[data-cognition-id="${cognitionId}"]`).waitFor();
  t.true(await page.getByText('1 条认知').isVisible());
  await shoot(page, 'collection');
  await page.getByRole('button', { name: '编辑', exact: true }).click();
  const rename = page.getByRole('dialog', { name: '编辑收藏夹' });
  await rename.getByLabel('名称').fill('储能与电池');
  await rename.getByRole('button', { name: '保存' }).click();
  await page.getByRole('heading', { name: '储能与电池', level: 1 }).waitFor();
  await page.getByRole('button', { name: '移出收藏夹' }).click();
  await page.getByRole('heading', { name: '收藏夹里还没有认知' }).waitFor();
  t.is((await user.request('GET', `/backend/api/cognition/${cognitionId}`)).status, 200, 'removing from a collection keeps the cognition');

  // A cognition from a web page through the side panel: address, progress, then its page opens.
  await sidePanel(page).getByRole('button', { name: 'URL认知提取' }).click();
  const ask = page.getByRole('dialog', { name: 'URL认知提取' });
  await ask.getByLabel('网页地址').fill('ftp://example.com');
  await ask.getByRole('button', { name: '开始提取' }).click();
  await ask.getByText('请输入以 http:// 或 https:// 开头的网页地址').waitFor();
  await ask.getByLabel('网页地址').fill(`${web.url}/article`);
  await ask.getByRole('button', { name: '开始提取' }).click();
  await page.getByRole('dialog', { name: 'URL认知提取' }).getByRole('status').waitFor();
  await shoot(page, 'extracting');
  await page.waitForURL(/\/cognition\/display\?id=/);
  const pageCognitionId = new URL(page.url()).searchParams.get('id')!;
  t.not(pageCognitionId, cognitionId);
  await page.locator('.cog-kind', { hasText: '来自网页' }).waitFor();
  t.true(await page.locator('.cog-source a', { hasText: ARTICLE_TITLE }).isVisible(), 'the page is its cited source');

  // Synthesis: the toggle, two ticked cards (one public, one private under "mine"), then the result.
  await page.goto(`${app.url}/cognition?scope=mine`, { waitUntil: 'networkidle' });
  await sidePanel(page).getByRole('button', { name: '综合认知' }).click();
  await sidePanel(page).getByRole('button', { name: '取消综合' }).waitFor();
  const bar = page.getByRole('region', { name: '综合认知' });
  t.true(await bar.getByRole('button', { name: '综合', exact: true }).isDisabled(), 'nothing chosen yet');
  await page.getByRole('checkbox', { name: /^选择“钠离子电池的储能机会”/ }).check();
  await bar.getByText('再选 1 条即可综合').waitFor();
  t.true(await bar.getByRole('button', { name: '综合', exact: true }).isDisabled(), 'one is not enough');
  await page.locator(`[data-cognition-id="${pageCognitionId}"]`).click();
  await bar.getByText('已选 2 / 5').waitFor();
  await shoot(page, 'synthesis');
  await bar.getByRole('button', { name: '综合', exact: true }).click();
  await page.waitForURL(/\/cognition\/display\?id=/);
  await page.locator('.cog-kind', { hasText: '综合生成' }).waitFor();
  t.is(await page.locator('.cog-source a[href^="/cognition/display?id="]').count(), 2, 'both cognitions are its sources');
  t.true(await sidePanel(page).getByRole('button', { name: '综合认知' }).isVisible(), 'synthesis mode ends with the result');
  await page.evaluate(() => window.scrollTo(0, 0));
  await shoot(page, 'synthesized');

  // English, then delete the synthesis.
  await page.getByRole('button', { name: 'English' }).click();
  await page.getByRole('heading', { name: 'Key insights' }).waitFor();
  await page.getByRole('region', { name: 'Cognition platform' }).getByRole('button', { name: 'Synthesize cognition' }).waitFor();
  await shoot(page, 'display-en');
  await page.getByRole('button', { name: '中文' }).click();
  await page.getByRole('button', { name: '删除', exact: true }).click();
  await page.getByRole('alertdialog', { name: '删除认知' }).getByRole('button', { name: '删除' }).click();
  await page.waitForURL(/\/cognition\/library$/);
  await page.locator(`[data-cognition-id="${cognitionId}"]`).waitFor();
  t.is((await user.request('GET', '/backend/api/cognition', undefined)).body.total, 1, 'one public cognition remains');

  t.deepEqual(errors, [], 'no script errors');
  await context.close();
});

test.serial('a cognition drawn from a note keeps its link targets and inline code, in Chinese and English', async (t) => {
  const user = await signUp(app.url, 'linkednotes');
  const id = await cognitionFromNotes(user, [
    {
      name: '部署笔记',
      content: [
        '部署前先运行 `npm run build` 构建前端，再运行 `npm start` 启动服务。',
        '构建前端的步骤见 [Vite 文档](https://vite.dev/guide/build) 的构建一节，构建前端很快。',
        '启动服务之前先构建前端，`npm start` 会读取构建好的前端文件。',
      ].join('\n\n'),
    },
  ]);
  const { page, pageErrors } = await signedInPage(t, browser, user.token!);
  await page.goto(`${app.url}/cognition/display?id=${id}`, { waitUntil: 'networkidle' });
  const insights = page.locator('.cog-insights');
  await insights.getByRole('link', { name: 'Vite 文档' }).waitFor();
  t.is(await insights.getByRole('link', { name: 'Vite 文档' }).getAttribute('href'), 'https://vite.dev/guide/build');
  t.is(await insights.locator('code', { hasText: 'npm run build' }).count(), 1);
  await shoot(page, 'links-kept');
  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  await page.reload({ waitUntil: 'networkidle' });
  await insights.getByRole('link', { name: 'Vite 文档' }).waitFor();
  await shoot(page, 'links-kept-en');
  t.deepEqual(pageErrors, []);
});
