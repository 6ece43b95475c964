/**
 * /demo/i18n in a real browser: signed in (the route needs login, docs/decisions.md), every namespace
 * side by side with zero missing keys, the filters, the live language switch, and axe in both
 * languages. Serves frontend/dist: run `npm run build` first.
 */
import { AxeBuilder } from '@axe-core/playwright';
import test from 'ava';
import type { Page } from 'playwright-core';
import { browserSuite, screenshot, signedInPage } from '../support/browser.ts';
import { signUp } from '../support/app.ts';

const suite = browserSuite();

const seriousViolations = async (page: Page) =>
  (await new AxeBuilder({ page }).analyze()).violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);

test('signed out, the page sends to login and comes back after it', async (t) => {
  const context = await suite.browser.newContext({ locale: 'zh-CN' });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.goto(`${suite.app.url}/demo/i18n`, { waitUntil: 'networkidle' });
  await page.waitForURL(/\/login\?redirect=%2Fdemo%2Fi18n$/);
  t.pass();
});

test('every namespace in zh and en side by side, zero keys missing, filtered and searched, and switched live to English', async (t) => {
  const user = await signUp(suite.app.url, 'i18nreader');
  const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
  await page.goto(`${suite.app.url}/demo/i18n`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: '国际化演示', level: 1 }).waitFor();

  t.is(await page.getByTestId('missing-zh').innerText(), '0');
  t.is(await page.getByTestId('missing-en').innerText(), '0');
  // The page lists its own texts too, so the summary is found by its role.
  t.true(await page.getByRole('status').filter({ hasText: '两种语言的键完全一致，没有缺失的键。' }).isVisible());
  const table = page.getByRole('table', { name: '各命名空间的翻译键与中英文文案' });
  const rows = table.locator('tbody tr');
  const total = await rows.count();
  t.true(total > 1000, `${total} keys listed`);
  t.true(await page.getByRole('status').filter({ hasText: `显示 ${total} / ${total} 个键` }).isVisible());
  // A row pairs the key with both texts: the spec's budget refusal, from the refusals namespace.
  const budget = table.getByRole('row', { name: /budget\.exhausted/ });
  t.deepEqual(await budget.locator('td').allInnerTexts(), ['refusals', 'Token使用额度已用尽，请联系管理员进行充值', 'Your token allowance is used up; please ask an administrator to top it up']);
  await screenshot(page, 'i18n-zh');

  await page.getByRole('combobox', { name: '命名空间' }).click();
  await page.getByRole('option', { name: 'cli', exact: true }).click();
  const namespaces = new Set(await rows.locator('td.i18n-ns').allInnerTexts());
  t.deepEqual([...namespaces], ['cli']);
  const inCli = namespaces.size && (await rows.count());
  await page.getByRole('searchbox', { name: '搜索' }).fill('轨迹');
  await page.waitForFunction((before) => document.querySelectorAll('.i18n-table tbody tr').length < before, inCli);
  const found = await rows.allInnerTexts();
  t.true(found.length > 0);
  for (const text of found) t.true(text.includes('轨迹'), text);
  await page.getByRole('checkbox', { name: '只看缺失' }).check();
  await page.locator('.i18n-empty').waitFor();
  t.is(await rows.count(), 0);
  t.deepEqual(await seriousViolations(page), []);

  await page.getByRole('checkbox', { name: '只看缺失' }).uncheck();
  await page.getByRole('searchbox', { name: '搜索' }).fill('');
  await page.getByRole('combobox', { name: '命名空间' }).click();
  await page.getByRole('option', { name: '全部命名空间' }).click();
  await page.getByRole('main').getByRole('button', { name: 'English' }).click();
  await page.getByRole('heading', { name: 'Internationalisation demo', level: 1 }).waitFor();
  t.is(await page.evaluate(() => document.documentElement.lang), 'en');
  t.true(await page.getByRole('status').filter({ hasText: 'Both languages have the same keys: nothing is missing.' }).isVisible());
  t.regex(await page.getByRole('columnheader', { name: /English/ }).innerText(), /current/);
  t.true(await page.getByRole('status').filter({ hasText: `Showing ${total} of ${total} keys` }).isVisible());
  await screenshot(page, 'i18n-en');
  t.deepEqual(await seriousViolations(page), []);
  t.deepEqual(pageErrors, []);
});

test('in English, quotes are drawn narrow while Chinese text keeps its full-width punctuation', async (t) => {
  const context = await suite.browser.newContext({ locale: 'zh-CN' });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.addInitScript(() => localStorage.setItem('app_language', 'en'));
  await page.goto(`${suite.app.url}/research`, { waitUntil: 'networkidle' });
  // English arrives in a chunk of its own and sets the page's language, which picks the quotes' font:
  // measured before that (as on a loaded machine, after the network has gone quiet) they are Chinese.
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await page.evaluate(() => document.fonts.ready);
  // No helper function inside: the test runner's transform would name it with a helper the page lacks.
  const [quote, comma, paren, base, han] = await page.evaluate((texts) => {
    const spans = texts.map((text) => Object.assign(document.body.appendChild(document.createElement('span')), { textContent: text }));
    for (const span of spans) span.style.fontSize = '20px';
    const measured = spans.map((span) => span.getBoundingClientRect().width);
    for (const span of spans) span.remove();
    return measured;
  }, ['a’a', '中，中', '中（中', 'aa', '中中']);
  // Measured between letters: a lone opening bracket at the start of a line is trimmed by design (text-spacing-trim).
  const widths = { quote: quote! - base!, comma: comma! - han!, paren: paren! - han! };
  t.true(widths.quote < 12, `’ is ${widths.quote} px wide at 20 px`);
  t.true(widths.comma >= 18 && widths.paren >= 18, `，and （ are ${widths.comma} and ${widths.paren} px wide at 20 px`);
});
