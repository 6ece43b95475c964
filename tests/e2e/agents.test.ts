/**
 * Agents in a real browser: reached from the research welcome, created with tools, a tool tried
 * with its arguments, and the run shown on the monitoring page. Serves frontend/dist.
 */
import test from 'ava';
import { browserSuite, screenshot, signedInPage } from '../support/browser.ts';
import { signUp } from '../support/app.ts';

const suite = browserSuite();

test('a user creates an agent, tries its calculator and sees the run on the monitoring page', async (t) => {
  const user = await signUp(suite.app.url, 'agentuser');
  const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);

  await page.goto(`${suite.app.url}/research`, { waitUntil: 'networkidle' });
  await page.getByRole('link', { name: '我的智能体' }).click();
  await page.getByText('还没有智能体').waitFor();
  await page.getByRole('link', { name: '创建智能体' }).first().click();

  // Saving an empty form says what is missing, under each field.
  await page.getByRole('button', { name: '创建', exact: true }).click();
  await page.getByText('智能体名称不能为空').waitFor();
  await page.getByText('请写下智能体的工作说明').waitFor();
  t.is(await page.getByRole('textbox', { name: '名称' }).getAttribute('aria-invalid'), 'true');
  t.true(await page.getByRole('textbox', { name: '名称' }).evaluate((input) => input === document.activeElement), 'the first missing field has the focus');

  await page.getByRole('textbox', { name: '名称' }).fill('财务助手');
  await page.getByLabel('工作说明').fill('回答财务问题时先列出计算过程，金额保留两位小数。');
  await page.getByRole('checkbox', { name: /calculator/ }).check();
  await page.getByRole('checkbox', { name: /unit_convert/ }).check();
  await screenshot(page, 'agents-create');
  await page.getByRole('button', { name: '创建', exact: true }).click();

  await page.waitForURL(/\/remote\?agent=/);
  await page.getByRole('heading', { name: '财务助手' }).waitFor();
  const args = page.getByLabel('参数');
  await args.fill('{"expression": "1200 * 1.06^3"}');
  await page.getByRole('button', { name: '运行', exact: true }).click();
  await page.locator('.agent-result.ok').waitFor();
  t.regex(await page.locator('.agent-result').innerText(), /1429\.2/);
  await page.locator('.agent-runs li.ok').waitFor();
  await args.fill('{"expression": 12');
  t.true(await page.getByText('参数需要是一个 JSON 对象').isVisible());
  t.is(await page.locator('.agent-result').count(), 0, 'the last result goes once the arguments change');
  await screenshot(page, 'agents-monitor');

  // In English a tool's refusal reads in English, in the result and in the history.
  await page.evaluate(() => localStorage.setItem('app_language', 'en'));
  await page.reload({ waitUntil: 'networkidle' });
  await page.getByLabel('Arguments').fill('{"expression": "1 / 0"}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.locator('.agent-result.failed', { hasText: 'Division by zero' }).waitFor();
  await page.locator('.agent-runs li.failed', { hasText: 'Division by zero' }).waitFor();
  t.false(/[\u4e00-\u9fff]/.test(await page.locator('.agent-runs').innerText()), 'no Chinese in the English history');
  await screenshot(page, 'agents-monitor-en');
  t.deepEqual(pageErrors, []);
});
