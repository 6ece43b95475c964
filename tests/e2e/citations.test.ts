/**
 * Checked citations in the browser, zh and en: a report written by the lab's scripted model, which
 * makes up claims with citations and whose judge offers no rewrite, shows each claim its source does
 * not support marked with its reason, in the canvas and in the shared view; clicking a citation
 * opens what its source says. Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app.ts';
import { screenshot, signedInPage, startBrowser } from '../support/browser.ts';
import { ask, awaitReply, newUser, openConversation } from '../lab/drive.ts';
import { TOPICS } from '../lab/corpus.ts';
import { startScriptedModel, type ScriptedModel } from '../lab/model.ts';
import { startLabWeb, type LabWeb } from '../lab/web.ts';

let model: ScriptedModel;
let web: LabWeb;
let app: TestApp;
let browser: Browser;

test.before(async () => {
  model = await startScriptedModel({ seed: 5, mistakeRate: 0.6, rewrites: false });
  web = await startLabWeb();
  app = await startTestApp({ LLM_BASE_URL: model.url, LLM_MODEL: 'lab-scripted', LLM_API_KEY: 'lab-key', SEARCH_URL: web.searchUrl, FETCH_ALLOW_HOSTS: web.pagesHost });
  browser = await startBrowser();
});
test.after.always(async () => {
  await browser?.close();
  await app?.stop();
  await Promise.all([model?.close(), web?.close()]);
});

const WORDS = {
  zh: { topic: 'sodium', mark: '待核实', title: /来源 \d+ 的原文/, verdicts: /来源支持这句话|来源与这句话相关|已更正/ },
  en: { topic: 'heatpumps', mark: 'unverified', title: /What source \d+ says/, verdicts: /The source supports this sentence|The source bears on this sentence|Corrected/ },
} as const;

for (const language of ['zh', 'en'] as const) {
  const words = WORDS[language];

  test.serial(`${language}: a claim its source does not support is marked with its reason in the canvas and the shared view; a citation opens its evidence`, async (t) => {
    const user = await newUser(app.url, `cite${language}${process.pid}`);
    const conversation = await openConversation(app.url, user, `cite-${language}`);
    const topic = TOPICS.find((candidate) => candidate.id === words.topic)!;
    // The suite's hang detector, not 150 s: at load average 39 (`npm run test:stress`) the reply ran past that.
    const end = await awaitReply(conversation, await ask(conversation, topic.question), 10 * 60_000);
    conversation.socket.close();
    t.is(end.outcome, 'completed');

    const version = (await user.call('GET', `/conversation/research/${conversation.sessionId}/canvas`)).body.versions.at(-1);
    const checks: Array<{ n: number; verdict: string; action: string; excerpt: string }> = version.citations;
    t.true(checks.some((check) => check.action === 'marked' && check.verdict === 'unsupported'), 'a made-up claim stayed marked');
    t.true(checks.some((check) => check.verdict === 'supported' && check.excerpt.length > 0), 'a supported citation keeps its evidence');
    t.false(/\[\d+\](?!\()/.test(version.content.replace(/\[\[\d+\]\]\([^)]*\)/g, '').split(/^## (参考来源|Sources)/m)[0]!), 'no unlinked (dangling) number is published');

    const { page, pageErrors } = await signedInPage(t, browser, user.token!);
    await page.addInitScript((lang) => {
      localStorage.setItem('app_language', lang);
      localStorage.setItem('guidance_enabled', 'false');
    }, language);
    await page.goto(`${app.url}/research?conversation_id=${conversation.sessionId}`);
    const doc = page.locator('.canvas-doc .ProseMirror');
    await doc.waitFor();
    const mark = doc.locator('.citation-unverified').first();
    await mark.waitFor();
    t.true((await mark.innerText()).includes(words.mark), 'the mark says why, in the report language');
    await mark.scrollIntoViewIfNeeded();
    await screenshot(page, `citations-marked-${language}`);

    const supported = version.content.indexOf(`[[${checks.find((check) => check.verdict === 'supported')!.n}]](`);
    const n = Number(/\[\[(\d+)\]\]/.exec(version.content.slice(supported))![1]);
    await doc.locator('a', { hasText: `[${n}]` }).first().click();
    const popover = page.locator('.citation-popover');
    await popover.waitFor();
    t.regex(await popover.innerText(), words.title);
    t.true((await popover.locator('.citation-excerpt').innerText()).length > 10, 'the evidence excerpt is shown');
    t.regex(await popover.locator('.citation-verdict').innerText(), words.verdicts);
    await screenshot(page, `citations-evidence-${language}`);
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'detached' });

    const shared = await user.call('POST', '/conversation/sessions/share', { session_id: conversation.sessionId });
    t.is(shared.status, 200);
    const visitor = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    t.teardown(() => visitor.close());
    const reader = await visitor.newPage();
    await reader.addInitScript((lang) => localStorage.setItem('app_language', lang), language);
    reader.on('pageerror', (error) => pageErrors.push(error.message));
    await reader.goto(`${app.url}${shared.body.path}`, { waitUntil: 'networkidle' });
    const sharedMark = reader.locator('.canvas-doc .citation-unverified').first();
    await sharedMark.waitFor();
    t.true((await sharedMark.innerText()).includes(words.mark));
    await sharedMark.scrollIntoViewIfNeeded();
    await screenshot(reader, `citations-shared-${language}`);
    t.deepEqual(pageErrors, []);
  });
}
