/**
 * Passwords in the browser (issue 30 item 7): changed in the status dialog with the current one (the
 * other sign-in ends, this browser carries on with its socket), reset with a code mailed from the
 * sign-in page, and reset by an administrator in /manage. Serves frontend/dist: run `npm run build` first.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { client, signInAdmin, signUp, startTestApp, type Client } from '../support/app.ts';
import { browserSuite, screenshot, signedInPage } from '../support/browser.ts';

const suite = browserSuite(() => startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password', SMTP_URL: '' }));
const OLD = 'correct horse battery';
const NEW = 'a new passphrase';

const login = (username: string, password: string) => client(suite.app.url).request('POST', '/backend/auth/login', { username, password }, { form: true });

async function pageIn(t: { teardown(fn: () => Promise<void>): void }, browser: Browser, token: string, language: 'zh' | 'en'): Promise<{ page: Page; pageErrors: string[] }> {
  const opened = await signedInPage(t, browser, token, { timezoneId: 'UTC' });
  await opened.page.addInitScript((lang) => {
    localStorage.setItem('app_language', lang);
    localStorage.setItem('guidance_enabled', 'false');
  }, language);
  return opened;
}

const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('auth_token'));

for (const language of ['zh', 'en'] as const) {
  const en = language === 'en';
  test.serial(`a password changed in the status dialog ends the other sign-in and keeps this one, socket and all (${language})`, async (t) => {
    const username = `pwchange${language}`;
    const user = await signUp(suite.app.url, username);
    const elsewhere = await pageIn(t, suite.browser, (await login(username, OLD)).body.access_token, language);
    await elsewhere.page.goto(`${suite.app.url}/research`);
    await elsewhere.page.getByText(en ? 'Connected' : '已连接').waitFor();

    const { page, pageErrors } = await pageIn(t, suite.browser, user.token!, language);
    await page.goto(`${suite.app.url}/research`);
    await page.getByText(en ? 'Connected' : '已连接').waitFor();
    await page.locator('.user-button').click();
    // The quota's daily reset is a day, whatever the browser's zone (this one runs in UTC, the quota in Shanghai).
    const refreshed = page.locator('.usage-grid div').filter({ hasText: en ? 'Last refresh' : '上次刷新' }).locator('dd');
    await refreshed.waitFor();
    t.notRegex(await refreshed.innerText(), /\d:\d\d/, 'a day, not the afternoon before');
    const card = page.locator('section.account-password');
    await card.getByRole('button', { name: en ? 'Change password' : '修改密码' }).click();
    await card.getByLabel(en ? 'Current password' : '当前密码').fill('not it at all');
    await card.getByLabel(en ? 'New password' : '新密码', { exact: true }).fill(NEW);
    await card.getByLabel(en ? 'New password again' : '再次输入新密码').fill(`${NEW}!`);
    await card.getByRole('button', { name: en ? 'Save new password' : '保存新密码' }).click();
    await card.getByText(en ? 'The two new passwords differ' : '两次输入的新密码不一致').waitFor();
    await card.getByLabel(en ? 'New password again' : '再次输入新密码').fill(NEW);
    await card.getByRole('button', { name: en ? 'Save new password' : '保存新密码' }).click();
    await card.getByRole('alert').filter({ hasText: en ? 'The current password is wrong' : '当前密码不正确' }).waitFor();
    await screenshot(page, `password-change-${language}`);
    t.is((await login(username, OLD)).status, 200, 'a wrong current password changes nothing');

    await card.getByLabel(en ? 'Current password' : '当前密码').fill(OLD);
    const reconnected = page.waitForEvent('websocket', { predicate: (socket) => socket.url().includes('/conversation/ws/') && !socket.url().includes(encodeURIComponent(user.token!)) });
    await card.getByRole('button', { name: en ? 'Save new password' : '保存新密码' }).click();
    // Exact: the toast's screen-reader announcement ("通知 …") holds the same words while it lasts, longer on a loaded machine.
    await page.getByText(en ? 'Password changed; your other devices are signed out' : '密码已修改，其他设备上的登录已退出', { exact: true }).waitFor();
    t.not(await storedToken(page), user.token, 'this browser holds the new token');
    t.is((await client(suite.app.url, (await storedToken(page))!).request('GET', '/backend/auth/me')).status, 200);

    await elsewhere.page.waitForFunction(() => localStorage.getItem('auth_token') === null);
    t.is((await login(username, NEW)).status, 200);
    t.is((await login(username, OLD)).status, 401);

    // The socket closed for the old token comes back with the new one; the user is still signed in.
    await reconnected;
    await page.keyboard.press('Escape');
    await page.getByText(en ? 'Connected' : '已连接').waitFor();
    t.regex(page.url(), /\/research/);
    t.truthy(await storedToken(page));
    t.deepEqual(pageErrors, []);
  });

  test.serial(`a forgotten password is reset with a mailed code from the sign-in page (${language})`, async (t) => {
    const username = `pwforgot${language}`;
    await signUp(suite.app.url, username);
    const admin = await signInAdmin(suite.app.url);
    const context = await suite.browser.newContext({ viewport: { width: 1440, height: 900 } });
    t.teardown(() => context.close());
    await context.addInitScript((lang) => localStorage.setItem('app_language', lang), language);
    const page = await context.newPage();
    await page.goto(`${suite.app.url}/login`);
    await page.getByRole('button', { name: en ? 'Forgot your password?' : '忘记密码？' }).click();
    const dialog = page.getByRole('dialog', { name: en ? 'Reset your password' : '重置密码' });
    await dialog.getByLabel(en ? 'E-mail' : '邮箱').fill(`${username}@example.com`);
    await dialog.getByRole('button', { name: en ? 'Send code' : '发送验证码' }).click();
    await dialog.getByText(en ? 'If the address belongs to an account, a code is on its way there' : '如果该邮箱属于某个账户，验证码已发送到该邮箱').waitFor();
    const code = await mailedCode(admin, `${username}@example.com`);
    await dialog.getByLabel(en ? 'Code' : '验证码').fill(code);
    await dialog.getByLabel(en ? 'New password' : '新密码').fill(NEW);
    await screenshot(page, `password-forgot-${language}`);
    await dialog.getByRole('button', { name: en ? 'Reset password' : '重置密码' }).click();
    await dialog.getByText(en ? 'Your password is reset; sign in with the new one.' : '密码已重置，请使用新密码登录。').waitFor();
    await dialog.getByRole('button', { name: en ? 'Back to sign-in' : '返回登录' }).click();

    await page.getByLabel(en ? 'Username' : '用户名').fill(username);
    await page.getByLabel(en ? 'Password' : '密码', { exact: true }).fill(NEW);
    await page.getByRole('button', { name: en ? 'Sign in' : '登录', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    t.is((await login(username, OLD)).status, 401);
  });

  test.serial(`an administrator resets a user's password in /manage (${language})`, async (t) => {
    const username = `pwadmin${language}`;
    const user = await signUp(suite.app.url, username);
    const admin = await signInAdmin(suite.app.url);
    const { page, pageErrors } = await pageIn(t, suite.browser, admin.token!, language);
    await page.goto(`${suite.app.url}/manage`);
    await page.getByRole('searchbox').fill(username);
    await page.getByRole('searchbox').press('Enter');
    await page.getByRole('button', { name: `${en ? 'Edit' : '编辑'} ${username}` }).click();
    const editor = page.getByRole('dialog', { name: en ? `Edit user · ${username}` : `编辑用户 · ${username}` });
    await editor.getByLabel(en ? 'Reset password' : '重置密码').fill('short');
    await editor.getByRole('button', { name: en ? 'Reset password' : '重置密码' }).click();
    await editor.getByText(en ? 'The new password needs at least 8 characters' : '新密码至少 8 个字符').waitFor();
    await editor.getByLabel(en ? 'Reset password' : '重置密码').fill(NEW);
    await editor.getByRole('button', { name: en ? 'Reset password' : '重置密码' }).click();
    await editor.getByText(en ? `${username}’s password is reset and every sign-in of theirs ended` : `已重置 ${username} 的密码，其所有登录已退出`).waitFor();
    await screenshot(page, `password-admin-${language}`);
    t.is((await user.request('GET', '/backend/auth/me')).status, 401, "the user's sign-in ended");
    t.is((await login(username, NEW)).status, 200);
    t.deepEqual(pageErrors, []);
  });
}

async function mailedCode(admin: Client, email: string): Promise<string> {
  await suite.app.settle();
  const { body } = await admin.request('GET', '/backend/auth/admin/outbox?limit=100');
  const mail = (body.mails as Array<{ to: string[]; subject: string }>).find((each) => each.to.includes(email));
  return /(\d{6})/.exec(mail?.subject ?? '')?.[1] ?? '';
}
