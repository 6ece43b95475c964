/**
 * /manage's Connections tab in a real browser against the real server: an administrator adds a model
 * endpoint pointing at a local OpenAI-compatible server, tests it and sees who answered; the key
 * never reaches the page. At 1440 and 390 px, in zh and en. Serves frontend/dist: run `npm run build` first.
 */
import { AxeBuilder } from '@axe-core/playwright';
import test from 'ava';
import { screenshot, signedInPage, startBrowser } from '../support/browser.ts';
import { signInAdmin, startTestApp } from '../support/app.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';

const KEY = 'sk-browser-test-key-0a1b2c3d';

const TEXTS = {
  zh: { add: '添加模型端点', url: '接口地址', model: '模型', key: '密钥', save: '保存', test: '测试连接', ok: '连接成功', answered: '应答模型 qwen3-8b', failed: '连接失败', hint: '密钥 ••••2c3d' },
  en: { add: 'Add model endpoint', url: 'API address', model: 'Model', key: 'Key', save: 'Save', test: 'Test connection', ok: 'Connected', answered: 'answered by qwen3-8b', failed: 'Connection failed', hint: 'Key ••••2c3d' },
} as const;

for (const language of ['zh', 'en'] as const) {
  test.serial(`an administrator adds a model endpoint in Connections, tests it and sees the result (${language})`, async (t) => {
    const text = TEXTS[language];
    const upstream = await startMockOpenAI({ apiKey: KEY });
    t.teardown(() => upstream.close());
    const app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' });
    t.teardown(() => app.stop());
    const browser = await startBrowser();
    t.teardown(() => browser.close());
    const admin = await signInAdmin(app.url);
    const { page, pageErrors } = await signedInPage(t, browser, admin.token!);
    await page.addInitScript((lang) => localStorage.setItem('app_language', lang), language);
    const responses: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/backend/admin/connections')) void response.text().then((body) => responses.push(body), () => undefined);
    });

    await page.goto(`${app.url}/manage?tab=connections`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: text.add }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(text.url).fill(upstream.url);
    await dialog.getByLabel(text.model, { exact: true }).fill('qwen3-8b');
    await dialog.getByLabel(text.key, { exact: true }).fill(KEY);
    // The built-in profile of the model typed shows as the placeholder of its fields.
    await dialog.locator('input[placeholder*="32768"], input[placeholder*="32,768"]').first().waitFor();
    await screenshot(page, `connections-endpoint-dialog-${language}`);
    await dialog.getByRole('button', { name: text.save }).click();
    await dialog.waitFor({ state: 'detached' });

    const card = page.getByRole('listitem', { name: 'qwen3-8b' });
    await card.getByText(text.hint).waitFor();
    await card.getByRole('button', { name: text.test }).click();
    await card.getByText(text.ok).waitFor();
    await card.getByText(text.answered).waitFor();
    t.is(upstream.requests.at(-1)?.headers.authorization, `Bearer ${KEY}`);
    await screenshot(page, `connections-tested-${language}`);

    // A search engine that answers nothing: its test shows the failure and the error.
    await page.getByRole('textbox', { name: language === 'zh' ? 'SearXNG 地址' : 'SearXNG address' }).fill('http://127.0.0.1:9');
    const searchSection = page.getByRole('region', { name: language === 'zh' ? '联网搜索' : 'Web search' });
    await searchSection.getByRole('button', { name: text.save }).click();
    await searchSection.getByRole('button', { name: text.test }).click();
    await searchSection.getByText(text.failed).waitFor();

    const { violations } = await new AxeBuilder({ page }).analyze();
    t.deepEqual(
      violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
      [],
      'no serious or critical axe violations on the tab',
    );

    await page.setViewportSize({ width: 390, height: 844 });
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, `connections-narrow-${language}`);

    t.false(responses.some((body) => body.includes(KEY)), 'the key never reaches the page');
    t.false((await page.content()).includes(KEY));
    t.deepEqual(pageErrors, []);
  });
}
