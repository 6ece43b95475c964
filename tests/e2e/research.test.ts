/**
 * The research flows in a real browser, as a new user meets them, on the offline engine: general
 * chat (stream, reload mid-stream, share), and deep research (clarify, plan, search, browse, canvas
 * with citations, feedback, targeted edit, hand edit, exports, socket drop, share).
 * Serves frontend/dist: run `npm run build` first.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import test from 'ava';
import type { ClientPayload } from '@scriptorium/domain/protocol/ws';
import type { Browser, Page, Response } from 'playwright-core';
import { PageFetcher } from '@scriptorium/infra/fetch/fetcher';
import type { SearchHit } from '@scriptorium/infra/search/port';
import { client, startTestApp, type TestApp } from '../support/app.ts';
import { startWebServer, type WebServer } from '../support/webServer.ts';
import { downloaded, selectInCanvas, startBrowser } from '../support/browser.ts';

const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
const FIRST_LOAD_BUDGET_GZIP = 350 * 1024;
mkdirSync(shots, { recursive: true });

let app: TestApp;
let web: WebServer;
let browser: Browser;
/** Each web search takes this long, so the browser sees the research progress step by step. */
const SEARCH_DELAY_MS = 900;

test.before(async () => {
  web = await startWebServer();
  // A web search that answers with the local test site's pages, slowly, as a real one would.
  const webSearch = {
    search: async (query: string): Promise<SearchHit[]> => {
      await new Promise((resolve) => setTimeout(resolve, SEARCH_DELAY_MS));
      return [
        { title: '固态电池的产业化进展', url: `${web.url}/article`, snippet: `${query}：固态电池用固态电解质取代了液态电解液`, source: 'web' },
        { title: '固态电池笔记', url: `${web.url}/notes.md`, snippet: `关于${query}的笔记`, source: 'web' },
      ];
    },
  };
  app = await startTestApp({}, { agents: { webSearch, fetcher: new PageFetcher({ allowHosts: ['localhost'] }) } });
  browser = await startBrowser();
});

test.after.always(async () => {
  await browser?.close();
  await app?.stop();
  await web?.close();
});

const shoot = (page: Page, name: string) => page.screenshot({ path: `${shots}research-${name}.png` });

const QUESTION = '请介绍一下固态电池的主要技术路线';

test.serial('a new user chats, reloads mid-stream, shares, and the link opens signed out', async (t) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  // First load of /research, all scripts gzipped as a server would send them.
  const scripts: Array<Promise<number>> = [];
  const collect = (response: Response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.body().then((body) => gzipSync(body).length));
  };
  page.on('response', collect);
  await page.goto(`${app.url}/research`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: '今天想研究什么？' }).waitFor();
  page.off('response', collect);
  const firstLoad = (await Promise.all(scripts)).reduce((sum, size) => sum + size, 0);
  t.log(`first load of /research: ${(firstLoad / 1024).toFixed(1)} KB gzip of JS`);
  t.true(firstLoad < FIRST_LOAD_BUDGET_GZIP, 'first load within 350 KB gzip');
  t.true(await page.getByText('请登录后查看').isVisible(), 'history needs login');
  await shoot(page, 'anonymous');

  // Register from the sign-in link, then arrive back on research with a default session.
  const username = `reader${Date.now().toString(36)}`;
  await page.goto(`${app.url}/register`);
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('昵称').fill('读者');
  await page.getByLabel('邮箱').fill(`${username}@example.com`);
  await page.getByLabel('密码', { exact: true }).fill('correct-horse-1');
  await page.getByLabel('确认密码').fill('correct-horse-1');
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await page.waitForURL(/\/research\?conversation_id=/);
  await page.getByText('已连接').waitFor();
  await page.getByText('离线引擎').waitFor();
  const welcome = page.getByRole('button', { name: '知道了' });
  await welcome.waitFor();
  await shoot(page, 'welcome-tip');
  // Walk through the first-visit tips.
  while (await welcome.isVisible().catch(() => false)) {
    await welcome.click();
    await page.waitForTimeout(700);
  }

  // General chat (mode 0), then send.
  await page.getByRole('radio', { name: '通用对话' }).click();
  await page.waitForTimeout(300);
  await page.getByRole('textbox', { name: '输入消息' }).fill(QUESTION);
  await page.keyboard.press('Enter');
  await page.locator('.message-user .bubble', { hasText: QUESTION }).waitFor();
  await shoot(page, 'streaming');

  // Reload straight away: the session and the reply come back, whole and once.
  await page.reload();
  await page.locator('.message-user .bubble', { hasText: QUESTION }).waitFor();
  const reply = page.locator('.message-assistant[data-status="completed"] .markdown').first();
  await reply.waitFor();
  const replyText = await reply.innerText();
  t.true(replyText.includes('离线'), 'the offline engine answered');
  t.is(await page.locator('.message-user').count(), 1, 'the question is shown once');
  t.is(await page.locator('.message-assistant').count(), 1, 'one reply after the reload');
  const firstLine = replyText.split('\n')[0]!;
  t.is(replyText.split(firstLine).length - 1, 1, 'no doubled text after resuming');
  await shoot(page, 'restored');

  // English, then back.
  await page.getByRole('button', { name: 'English' }).click();
  await page.getByText('Connected').waitFor();
  await shoot(page, 'english');
  await page.getByRole('button', { name: '中文' }).click();

  // Share: dialog, link, copy.
  await page.getByRole('button', { name: '分享' }).click();
  const dialog = page.getByRole('dialog', { name: '分享会话' });
  await dialog.getByRole('button', { name: '创建分享链接' }).click();
  await dialog.getByText('分享链接创建成功').waitFor();
  const link = await dialog.getByRole('textbox', { name: '分享链接' }).inputValue();
  t.regex(link, /\/share\/conversation\/[\w-]+$/);
  await shoot(page, 'share-dialog');
  await dialog.getByRole('button', { name: '关闭' }).first().click();
  // Opened again, the dialog lists that link (what it shows, until when, to copy) above the form
  // for another, rather than only a blank form that would make a second one.
  await page.getByRole('button', { name: '分享' }).click();
  await dialog.getByText('当前有效的分享链接').waitFor();
  const listed = dialog.locator('.share-list li');
  await listed.first().waitFor();
  t.is(await listed.count(), 1, 'the one link made, listed once');
  t.is(await listed.first().getByRole('textbox', { name: '分享链接' }).inputValue(), link);
  t.regex(await listed.first().innerText(), /对话与报告（不含私人资料） · 永久有效/);
  t.true(await listed.first().getByRole('button', { name: '复制链接' }).isVisible());
  t.true(await dialog.getByRole('button', { name: '创建分享链接' }).isVisible());
  await dialog.getByRole('button', { name: '关闭' }).first().click();

  // Signed out, in a fresh browser: read-only, full-screen, sending disabled.
  const visitor = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  const shared = await visitor.newPage();
  shared.on('pageerror', (error) => pageErrors.push(error.message));
  await shared.goto(link, { waitUntil: 'networkidle' });
  await shared.locator('.message-user .bubble', { hasText: QUESTION }).waitFor();
  t.is(await shared.locator('aside.sidebar').count(), 0, 'no sidebar on a shared page');
  t.true(await shared.getByText('只读').isVisible());
  t.is(await shared.getByRole('textbox', { name: '输入消息' }).count(), 0, 'no input on a shared conversation');
  await shoot(shared, 'shared');

  // A link that is not (or no longer) there says the share has ended, with the way home.
  await shared.goto(`${app.url}/share/conversation/no-such-share`, { waitUntil: 'networkidle' });
  await shared.getByRole('heading', { name: '这个分享已结束' }).waitFor();
  await shared.getByRole('link', { name: '返回首页' }).waitFor();
  await shoot(shared, 'shared-missing');
  await visitor.close();

  // Sessions: a second one, switching updates the URL, and the last one cannot be closed.
  await page.getByRole('button', { name: '新会话' }).click();
  await page.waitForFunction((question) => !document.querySelector('.workspace-title')?.textContent?.includes(question), QUESTION);
  const secondUrl = page.url();
  await page.locator('.session-list:not(.cloud) .session-select', { hasText: QUESTION }).click();
  await page.waitForURL((url) => url.toString() !== secondUrl);
  t.is(await page.locator('.session-list:not(.cloud) .session-item').count(), 2);
  await shoot(page, 'sessions');

  t.deepEqual(pageErrors, []);
  await context.close();
});

const VAGUE = '固态电池';
const FEEDBACK = '请补充成本方面的内容';

/** Registers through the form and walks through the first-visit tips; returns the API token. */
async function register(page: Page, prefix: string): Promise<string> {
  const username = `${prefix}${Date.now().toString(36)}`;
  await page.goto(`${app.url}/register`);
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('昵称').fill('研究员');
  await page.getByLabel('邮箱').fill(`${username}@example.com`);
  await page.getByLabel('密码', { exact: true }).fill('correct-horse-1');
  await page.getByLabel('确认密码').fill('correct-horse-1');
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await page.waitForURL(/\/research\?conversation_id=/);
  await page.getByText('已连接').waitFor();
  const tip = page.getByRole('button', { name: '知道了' });
  await tip.waitFor();
  while (await tip.isVisible().catch(() => false)) {
    await tip.click();
    await page.waitForTimeout(700);
  }
  return (await page.evaluate(() => localStorage.getItem('auth_token')))!;
}

const sessionIdOf = (page: Page) => new URL(page.url()).searchParams.get('conversation_id')!;


test.serial('deep research: clarify, plan, search, canvas with citations, feedback, targeted edit, exports, socket drop, reload, share', async (t) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', acceptDownloads: true });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const deepShot = (name: string, target: Page = page) => target.screenshot({ path: `${shots}research-deep-${name}.png` });

  // Every subscribe the page sends, per socket, to see what it asks for after a reconnect.
  const sockets: Array<Array<{ session_id: string; payload: Extract<ClientPayload, { content_type: 'subscribe' }> }>> = [];
  page.on('websocket', (socket) => {
    const sent: (typeof sockets)[number] = [];
    sockets.push(sent);
    socket.on('framesent', ({ payload }) => {
      const envelope = JSON.parse(String(payload));
      if (envelope.payload?.content_type === 'subscribe') sent.push(envelope);
    });
  });

  const token = await register(page, 'scholar');
  const sessionId = sessionIdOf(page);
  const api = client(app.url, token);
  t.true(await page.getByRole('radio', { name: '深度研究' }).isChecked(), 'deep research is the default mode');

  // A vague question: the agent asks to clarify first.
  await page.getByRole('textbox', { name: '输入消息' }).fill(VAGUE);
  await page.keyboard.press('Enter');
  const form = page.locator('form.clarification');
  await form.waitFor();
  t.true((await form.locator('fieldset').count()) >= 2, 'several clarification questions');
  await deepShot('clarification');
  await form.locator('fieldset').nth(0).locator('button.option').nth(1).click();
  await form.locator('fieldset').nth(1).locator('button.option').first().click();
  await form.getByRole('button', { name: '提交回答' }).click();
  await page.locator('.card.clarification.done').waitFor();

  // The plan, its steps moving, and the search and browsing progress in the spec's words.
  const plan = page.locator('.card.plan');
  await plan.waitFor();
  await page.locator('.plan-step.in_progress').first().waitFor();
  await page.getByText(/已获得 \d+ 条相关搜索结果/).first().waitFor();
  await page.locator('.card.browsing').first().waitFor();
  await page.locator('.plan-step.completed').first().waitFor();
  await page.getByText(/第 2\/\d 步：/).waitFor();
  await plan.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await deepShot('plan-search');

  // The browser loses the network mid-research; on return it resubscribes from its last position.
  await context.setOffline(true);
  await page.getByText(/已断开|连接中/).first().waitFor();
  await page.waitForTimeout(1_500);
  const shownBeforeDrop = Number(await page.evaluate(() => document.querySelectorAll('.message-assistant .card, .message-assistant .progress-line').length));
  await context.setOffline(false);
  await page.getByText('已连接').waitFor();

  // Stage 2: the canvas opens beside the chat (60/40) with version 1, cited and with its sources.
  const canvas = page.locator('.canvas-panel');
  await canvas.waitFor();
  const feedback = page.locator('.card.feedback');
  await feedback.waitFor();
  const canvasDoc = page.locator('.canvas-doc .ProseMirror');
  await page.waitForFunction(() => document.querySelector('.version-select')?.textContent?.includes('v1'));
  const docText = await canvasDoc.innerText();
  t.regex(docText, /【离线模式】/);
  t.regex(docText, /\[\d+\]/, 'numbered citations');
  t.regex(docText, /参考来源/, 'a sources list');
  t.true(await canvasDoc.locator('a[href*="/article"]').count() > 0, 'the sources list links the article');
  // The last first-visit tip explains the reports folder, once there is a report to open. The report
  // opening the canvas hands the focus to the composer (focus.test.ts), and no tip shows while a field
  // has the focus: it comes once the user turns from the composer.
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === '输入消息', undefined, { timeout: 5_000 }).catch(() => undefined);
  await page.getByRole('textbox', { name: '输入消息' }).blur();
  await page.getByRole('dialog', { name: '报告与文件' }).waitFor();
  await deepShot('artifacts-tip');
  await page.getByRole('button', { name: '知道了' }).click();
  const chat = await page.locator('.lm_item.lm_stack').first().boundingBox();
  const side = await page.locator('.lm_item.lm_stack').nth(1).boundingBox();
  t.truthy(chat && side);
  const share = side!.width / (chat!.width + side!.width);
  t.true(share > 0.55 && share < 0.65, `the canvas takes 60% beside the chat's 40% (${share.toFixed(2)})`);
  await deepShot('canvas');

  // After the drop and return, the page holds exactly what the log holds: nothing lost, nothing twice.
  const history = (await api.request('GET', `/backend/conversation/sessions/${sessionId}/messages`)).body;
  const reply = history.messages.find((message: any) => message.role === 'assistant');
  const count = (type: string) => reply.contents.filter((item: any) => item.content_type === type).length;
  t.is(await page.locator('.card.results').count(), count('web_search_results'), 'each search result card once');
  t.is(await page.locator('.card.plan').count(), 1, 'one plan card');
  t.is(await page.locator('.message-assistant').count(), history.messages.filter((message: any) => message.role === 'assistant').length);
  t.true(sockets.length >= 2, 'a second socket after the drop');
  const resubscribe = sockets.at(-1)!.find((envelope) => envelope.session_id === sessionId);
  t.true((resubscribe?.payload.last_position ?? 0) > 0, 'resubscribed from its last position');
  t.true(shownBeforeDrop > 0);
  const savedV1 = (await api.request('GET', `/backend/conversation/research/${sessionId}/canvas`)).body.versions.at(-1);
  const firstHeading = savedV1.content.split('\n')[0].replace(/^#\s*/, '');
  t.is(docText.split(firstHeading).length - 1, 1, 'the report title appears once');

  // Feedback: choose manual feedback with text; version 2 is written.
  await deepShot('feedback');
  await feedback.getByRole('button', { name: '手动反馈' }).click();
  const manualBox = feedback.getByRole('textbox', { name: '手动反馈' });
  t.true(await manualBox.evaluate((box) => box === document.activeElement), 'the feedback box takes the focus, and with it the view');
  await manualBox.fill(FEEDBACK);
  await feedback.getByRole('button', { name: '发送反馈' }).click();
  await page.getByText(FEEDBACK).first().waitFor();
  // Reload while version 2 is being written: the session and its stream come back.
  await page.reload();
  await page.locator('.message-user .bubble', { hasText: VAGUE }).waitFor();
  await page.waitForFunction(() => document.querySelector('.version-select')?.textContent?.includes('v2'));
  await page.locator('.card.feedback').last().waitFor();
  t.is(await page.locator('.message-user .bubble', { hasText: VAGUE }).count(), 1, 'the question once after the reload');

  // Targeted edit: select one sentence of version 2 and replace a word in it.
  const v2 = (await api.request('GET', `/backend/conversation/research/${sessionId}/canvas`)).body.versions.at(-1);
  t.is(v2.version, 2);
  const sentence = v2.content
    .split('\n')
    .map((line: string) => line.replace(/^\s*(?:[-*]|\d+\.)\s+/, ''))
    .filter((line: string) => !/^(#|>)/.test(line))
    .flatMap((line: string) => line.match(/[^。！？]+[。！？]/g) ?? [])
    .find((candidate: string) => candidate.length > 12 && candidate.includes('电池') && !/[[\]*_`]/.test(candidate) && v2.content.split(candidate).length === 2);
  t.truthy(sentence, 'a plain sentence to edit');
  await selectInCanvas(page, sentence);
  const popover = page.locator('form.edit-popover');
  await popover.waitFor();
  await popover.getByRole('textbox').fill('把“电池”改为“蓄电池”');
  await deepShot('targeted-edit');
  // Sent from the keyboard: the box goes and the report keeps the focus (it used to fall to the page's start).
  await popover.getByRole('textbox').press('Enter');
  await popover.waitFor({ state: 'detached' });
  t.true(await page.evaluate(() => document.activeElement?.classList.contains('ProseMirror') ?? false), 'focus is back in the report');
  await page.locator('.card.targeted-edit').waitFor();
  t.is(await popover.count(), 0, 'the box does not come back with the focus');
  await page.waitForFunction(() => document.querySelector('.version-select')?.textContent?.includes('v3'));
  const v3 = (await api.request('GET', `/backend/conversation/research/${sessionId}/canvas`)).body.versions.at(-1);
  t.is(v3.version, 3);
  t.is(v3.content, v2.content.replace(sentence, sentence.replaceAll('电池', '蓄电池')), 'only the selected sentence changed');
  t.true((await canvasDoc.innerText()).includes(sentence.replaceAll('电池', '蓄电池')));
  await deepShot('targeted-edit-done');

  // A hand edit in the canvas, saved as version 4.
  await canvasDoc.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('（人工补充）');
  await page.getByRole('button', { name: '保存为新版本' }).click();
  await page.waitForFunction(() => document.querySelector('.version-select')?.textContent?.includes('v4'));
  const v4 = (await api.request('GET', `/backend/conversation/research/${sessionId}/canvas`)).body.versions.at(-1);
  t.is(v4.version, 4);
  t.true(v4.content.includes('（人工补充）'));
  t.true(v4.content.includes('[1]') && !v4.content.includes('\\['), 'citations kept as written');
  t.is(v4.content.trimEnd(), `${v3.content.trimEnd()}（人工补充）`, 'the hand edit is the only change');
  await page.getByText('你的修改已保存为第 4 版').waitFor();

  // Exports: Markdown and PDF downloads.
  const [markdown] = await Promise.all([page.waitForEvent('download'), canvas.getByRole('button', { name: 'Markdown' }).click()]);
  const markdownText = (await downloaded(markdown)).toString('utf8');
  t.is(markdownText, v4.content);
  t.regex(markdown.suggestedFilename(), /-v4\.md$/);
  const [pdf] = await Promise.all([page.waitForEvent('download'), canvas.getByRole('button', { name: 'PDF' }).click()]);
  const pdfBytes = await downloaded(pdf);
  t.true(pdfBytes.length > 1000 && pdfBytes.subarray(0, 5).toString() === '%PDF-', 'a PDF file');

  // After a reload the conversation shows all of it again.
  await page.reload();
  await page.locator('.card.targeted-edit').waitFor();

  // Share, then open the link signed out: the canvas is there, read-only.
  await page.getByRole('button', { name: '分享' }).click();
  const dialog = page.getByRole('dialog', { name: '分享会话' });
  await dialog.getByRole('button', { name: '创建分享链接' }).click();
  const link = await dialog.getByRole('textbox', { name: '分享链接' }).inputValue();
  await dialog.getByRole('button', { name: '关闭' }).first().click();
  const visitor = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', acceptDownloads: true });
  const shared = await visitor.newPage();
  shared.on('pageerror', (error) => pageErrors.push(error.message));
  await shared.goto(link, { waitUntil: 'networkidle' });
  const sharedDoc = shared.locator('.canvas-doc .ProseMirror');
  await sharedDoc.waitFor();
  // The whole history, as the owner saw it: every plan (the revision plans again), the targeted edit, the hand save.
  const plans = (await api.request('GET', `/backend/conversation/sessions/${sessionId}/messages`)).body.messages.flatMap((message: any) => message.contents).filter((item: any) => item.content_type === 'plan').length;
  t.true(plans >= 2);
  for (const view of [page, shared]) {
    // The stream renders its cards once the Markdown renderer is in: wait for the last, then count.
    await view.locator('.card.plan').nth(plans - 1).waitFor();
    t.is(await view.locator('.card.plan').count(), plans, 'every plan has its card');
    t.is(await view.locator('.card.targeted-edit').count(), 1, 'the targeted edit card');
    t.is(await view.getByText(view === page ? '你的修改已保存为第 4 版' : '作者的修改已保存为第 4 版').count(), 1, 'the hand save, worded for who reads it');
    t.false((await view.locator('.chat-stream').innerText()).includes('**'), 'cards render Markdown, never raw **');
  }
  t.true((await sharedDoc.innerText()).includes('（人工补充）'), 'the shared canvas shows the latest version');
  t.is(await sharedDoc.getAttribute('contenteditable'), 'false', 'read-only');
  t.is(await shared.getByRole('button', { name: '保存为新版本' }).count(), 0);
  const [sharedPdf] = await Promise.all([shared.waitForEvent('download'), shared.locator('.canvas-panel').getByRole('button', { name: 'PDF' }).click()]);
  t.is((await downloaded(sharedPdf)).subarray(0, 5).toString(), '%PDF-', 'a signed-out visitor takes the PDF too');
  // The same link id opens the report alone.
  await shared.goto(link.replace('/share/conversation/', '/share/report/'), { waitUntil: 'networkidle' });
  await shared.getByText('共享的报告').waitFor();
  t.true((await shared.locator('.shared-report').innerText()).includes('（人工补充）'), 'the report page shows the latest version');
  await shared.screenshot({ path: `${shots}research-deep-shared-report.png` });
  await deepShot('shared', shared);
  await visitor.close();

  // The same screen in English: the agent's progress too, worded from its codes.
  const progressLines = () => page.locator('.info-item').allInnerTexts();
  t.true((await progressLines()).includes('联网搜索已开启：从网络检索资料'));
  await page.getByRole('button', { name: 'English' }).click();
  await page.getByText('Connected').waitFor();
  const english = await progressLines();
  t.true(english.includes('Web search is on: searching the web'), english.join(' | '));
  t.true(english.includes('Clarification Questions Generated'), english.join(' | '));
  t.false(english.includes('Making Clarification Questions .....'), 'progress the questions settled is gone once they are here');
  t.false(english.some((line) => /[\u4e00-\u9fff]/.test(line)), 'no Chinese progress left in the English view');
  await page.locator('.info-item').first().scrollIntoViewIfNeeded();
  await deepShot('english');
  await page.getByRole('button', { name: '中文' }).click();

  t.deepEqual(pageErrors, []);
  await context.close();
});
