/**
 * Refusals in the user's language, in a real browser against the real server: a wrong password on
 * /login and a taken user name on /register read in Chinese (the server's detail, byte for byte)
 * and in English (rendered from the refusal's code). Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { screenshot } from '../support/browser.ts';
import { productInBrowser } from '../support/browserProduct.ts';

const ADMIN = { username: 'chief', password: 'admin-password-1' };

const running = productInBrowser('errors', { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, SMTP_URL: '' });

const TEXTS = {
  zh: { wrongPassword: '用户名或密码错误', nameTaken: '用户名已被注册' },
  en: { wrongPassword: 'Wrong user name or password', nameTaken: 'This user name is already taken' },
} as const;

async function pageIn(t: { teardown(fn: () => Promise<void>): void }, language: 'zh' | 'en'): Promise<Page> {
  const context = await running.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: language === 'zh' ? 'zh-CN' : 'en-GB' });
  t.teardown(() => context.close());
  await context.addInitScript((lang) => localStorage.setItem('app_language', lang), language);
  return context.newPage();
}

for (const language of ['zh', 'en'] as const) {
  test.serial(`a wrong password and a taken user name read in ${language}`, async (t) => {
    const page = await pageIn(t, language);
    const banner = page.locator('[role="alert"]').first();

    await page.goto(`${running.product.url}/login`);
    await page.locator('input[name="username"]').fill(ADMIN.username);
    await page.locator('input[name="password"]').fill('not-the-password');
    await page.locator('button[type="submit"]').click();
    await banner.getByText(TEXTS[language].wrongPassword).waitFor();
    await screenshot(page, `errors-login-${language}`);

    await page.goto(`${running.product.url}/register`);
    await page.locator('input[name="username"]').fill(ADMIN.username);
    await page.locator('input[name="email"]').fill(`someone-${language}@example.com`);
    await page.locator('input[name="nickname"]').fill('Someone');
    await page.locator('input[name="password"]').fill('correct-horse-1');
    await page.locator('input[name="confirmPassword"]').fill('correct-horse-1');
    await page.locator('button[type="submit"]').click();
    await page.getByText(TEXTS[language].nameTaken).first().waitFor();
    await screenshot(page, `errors-register-${language}`);
    if (language === 'en') t.false(/[\u4e00-\u9fa5]/.test(await banner.innerText()), 'no Chinese in the English refusal');
    t.pass();
  });
}
