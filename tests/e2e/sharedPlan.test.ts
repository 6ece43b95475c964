/**
 * The plan card in a conversation's public link, in zh and en (issue 29 item 6): a visitor who opens
 * the link while the research works sees its plan move as the owner's live view does, each step's
 * change one after another, up to all done. The model is a local OpenAI-compatible server that
 * answers slowly. Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import { Corpus, SOLID_STATE } from '@scriptorium/workers/agents/deep_cognition/harness';
import { signUp } from '../support/app.ts';
import { startAppOnModel } from '../support/app.ts';
import { browserSuite, screenshot } from '../support/browser.ts';
import { plannedResearch, SOLID_STATE_PLAN } from '../support/researchModel.ts';
import { startResearch, watchedSession } from '../support/research.ts';

const STEPS = SOLID_STATE_PLAN.steps;
const reply = plannedResearch(SOLID_STATE_PLAN, '固态电池使用固态电解质取代液态电解液，能量密度更高，安全性也更好。');

const suite = browserSuite(() => {
  const corpus = new Corpus([...SOLID_STATE]);
  return startAppOnModel({ scenario: 'slow', delayMs: 60, reply }, {}, { agents: { webSearch: corpus, localSearch: corpus, fetcher: corpus } });
});

const WORDS = { zh: { readOnly: '只读' }, en: { readOnly: 'Read-only' } } as const;

/** The plan's states from the one shown first to all done, each step's change one at a time. */
function stepsFrom(first: string): string[] {
  const states = [STEPS.map(() => 'not_started'), ...STEPS.map((_, current) => STEPS.map((__, index) => (index < current ? 'completed' : index === current ? 'in_progress' : 'not_started'))), STEPS.map(() => 'completed')].map((state) => state.join(','));
  return states.slice(states.indexOf(first));
}

for (const language of ['zh', 'en'] as const) {
  test.serial(`${language}: a visitor of a shared research at work sees its plan card move step by step to all done`, async (t) => {
    const name = `sharedplan-${language}`;
    const user = await signUp(suite.app.url, name);
    const { sessionId, socket } = await watchedSession(suite.app.url, user, `${name}-client`);
    t.teardown(() => socket.close());
    const { item } = await startResearch(user, socket, sessionId, '固态电池的技术路线和产业化进展');
    await socket.next(item('plan'));
    const share = (await user.request('POST', '/backend/conversation/sessions/share', { session_id: sessionId })).body;

    const visitor = await suite.browser.newContext({ viewport: { width: 1440, height: 900 }, locale: language === 'zh' ? 'zh-CN' : 'en-US' });
    t.teardown(() => visitor.close());
    await visitor.addInitScript((lang) => localStorage.setItem('app_language', lang), language);
    const page = await visitor.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Every state the card is drawn in, as the page draws it.
    await page.addInitScript(() => {
      const shown: string[] = [];
      (window as unknown as { planStates: string[] }).planStates = shown;
      new MutationObserver(() => {
        const card = document.querySelector('.card.plan');
        if (!card) return;
        const state = [...card.querySelectorAll('.plan-step')].map((step) => step.className.replace('plan-step ', '')).join(',');
        if (shown.at(-1) !== state) shown.push(state);
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
    });
    await page.goto(`${suite.app.url}/share/conversation/${share.share_id}`, { waitUntil: 'networkidle' });
    await page.getByText(WORDS[language].readOnly).first().waitFor();
    const card = page.locator('.card.plan');
    await card.locator('.plan-step.in_progress').waitFor();
    await card.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await screenshot(page, `shared-plan-moving-${language}`);
    await card.locator(`.plan-step:nth-child(${STEPS.length}).completed`).waitFor();
    await card.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await screenshot(page, `shared-plan-done-${language}`);

    t.deepEqual(await card.locator('.plan-step').allInnerTexts(), STEPS.map((step) => step.description));
    const shown = await page.evaluate(() => (window as unknown as { planStates: string[] }).planStates);
    t.true(shown.length >= 2, `the card moved while the visitor watched: ${shown.join(' | ')}`);
    t.deepEqual(shown, stepsFrom(shown[0]!), 'each step change shown, one after another, up to all done');
    t.deepEqual(pageErrors, []);
  });
}
