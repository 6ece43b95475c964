/**
 * Around signing in, where users tripped: what was typed before signing in is still there after it;
 * the composer asks to sign in in the reader's language; a wrong password reads as one line and a
 * name already taken is said beside its field only; the consent page the command line opens
 * directly is styled, its buttons in reach on a desktop and a phone (zh and en).
 * Serves frontend/dist: run `npm run build` first.
 */
import { createHash, randomBytes } from 'node:crypto';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { signUp } from '../support/app.ts';
import { browserSuite, screenshot, signedInPage } from '../support/browser.ts';

const suite = browserSuite();

async function visitor(t: { teardown(fn: () => Promise<void>): void }, browser: Browser, language: 'zh' | 'en', viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: language === 'zh' ? 'zh-CN' : 'en-US' });
  t.teardown(() => context.close());
  await context.addInitScript((stored) => {
    localStorage.setItem('app_language', stored);
    localStorage.setItem('guidance_enabled', 'false');
  }, language);
  return context.newPage();
}

const bannerLines = (page: Page) => page.locator('.auth-card .banner').evaluate((banner) => (banner as HTMLElement).innerText.split('\n').filter((line) => line.trim() !== ''));

test.serial('text typed before signing in is there after it, and the composer asks to sign in in the reader’s language', async (t) => {
  const password = 'correct horse battery';
  const username = `draft${Date.now().toString(36)}`;
  await signUp(suite.app.url, username, password);
  const page = await visitor(t, suite.browser, 'zh');
  await page.goto(`${suite.app.url}/research`);
  const composer = page.getByRole('textbox', { name: '输入消息' });
  await composer.fill('比较三种固态电池路线的商业化进展');
  await composer.press('Enter');
  const alert = page.locator('.composer-alert');
  await alert.getByText('需要登录，输入的内容会保留：').waitFor();
  await screenshot(page, 'signin-composer-needs-login');
  await alert.getByRole('link', { name: '登录' }).click();
  await page.waitForURL(/\/login\?redirect=/);
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await page.waitForURL(/\/research/);
  await page.getByText('已连接').waitFor();
  t.is(await composer.inputValue(), '比较三种固态电池路线的商业化进展');
  await screenshot(page, 'signin-composer-kept');
  // Sent, the draft is gone: a reload starts empty.
  await composer.press('Enter');
  await page.waitForFunction(() => (document.querySelector('.composer-panel textarea') as HTMLTextAreaElement | null)?.value === '');
  await page.reload();
  await page.getByText('已连接').waitFor();
  t.is(await composer.inputValue(), '');

  const english = await visitor(t, suite.browser, 'en');
  await english.goto(`${suite.app.url}/research`);
  const box = english.getByRole('textbox', { name: 'Message' });
  await box.fill('Compare sodium-ion and LFP');
  await box.press('Enter');
  const englishAlert = english.locator('.composer-alert');
  await englishAlert.getByRole('link', { name: 'Sign in' }).waitFor();
  t.is(await englishAlert.innerText(), 'Signing in is needed, and what you typed is kept: Sign in');
  await screenshot(english, 'signin-composer-needs-login-en');
});

test.serial('a wrong password is one line, and a name already taken is said beside its field only', async (t) => {
  const taken = `taken${Date.now().toString(36)}`;
  await signUp(suite.app.url, taken);
  for (const [language, texts] of [
    ['zh', { user: '用户名', password: '密码', login: '登录', wrong: '用户名或密码错误', register: '注册', email: '邮箱', confirm: '确认密码', takenText: '用户名已被注册' }],
    ['en', { user: 'Username', password: 'Password', login: 'Sign in', wrong: 'Wrong user name or password', register: 'Register', email: 'E-mail', confirm: 'Confirm password', takenText: 'This user name is already taken' }],
  ] as const) {
    const page = await visitor(t, suite.browser, language);
    await page.goto(`${suite.app.url}/login`);
    await page.getByLabel(texts.user).fill(taken);
    await page.getByLabel(texts.password, { exact: true }).fill('not the password');
    await page.getByRole('button', { name: texts.login, exact: true }).click();
    await page.locator('.auth-card .banner').waitFor();
    t.deepEqual(await bannerLines(page), [texts.wrong]);
    await screenshot(page, `signin-wrong-password-${language}`);

    await page.goto(`${suite.app.url}/register`);
    await page.getByLabel(texts.user).fill(taken);
    await page.getByLabel(texts.email).fill(`${taken}-again-${language}@example.com`);
    await page.getByLabel(texts.password, { exact: true }).fill('correct horse battery');
    await page.getByLabel(texts.confirm).fill('correct horse battery');
    await page.getByRole('button', { name: texts.register, exact: true }).click();
    await page.getByRole('alert').filter({ hasText: texts.takenText }).waitFor();
    t.is(await page.locator('.auth-card .banner').count(), 0, 'no banner repeats it above the form');
    t.is(await page.getByText(/未知错误|Unknown error/).count(), 0);
    await screenshot(page, `signin-name-taken-${language}`);
  }
});

test.serial('the consent page opened directly while signed in is styled, its buttons in reach on a desktop and a phone', async (t) => {
  const user = await signUp(suite.app.url, `consent${Date.now().toString(36)}`);
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: 'scriptorium-cli',
    redirect_uri: 'http://127.0.0.1:53682/callback',
    scope: 'account',
    state: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    code_challenge_method: 'S256',
  });
  for (const [language, approve] of [['zh', '授权'], ['en', 'Authorise']] as const) {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const { page, pageErrors } = await signedInPage(t, suite.browser, user.token!);
      await page.setViewportSize(viewport);
      await page.addInitScript((stored) => localStorage.setItem('app_language', stored), language);
      await page.goto(`${suite.app.url}/oauth/authorize?${params}`, { waitUntil: 'networkidle' });
      const button = page.getByRole('button', { name: approve, exact: true });
      await button.waitFor();
      const card = await page.locator('.auth-card').evaluate((element) => {
        const style = getComputedStyle(element);
        return { background: style.backgroundColor, radius: style.borderTopLeftRadius, padding: style.paddingTop };
      });
      t.not(card.background, 'rgba(0, 0, 0, 0)', 'the card has its surface');
      t.not(card.radius, '0px');
      t.not(card.padding, '0px');
      await button.scrollIntoViewIfNeeded();
      const whole = await button.evaluate((element) => {
        const box = element.getBoundingClientRect();
        // Both ends (inside the rounded corners): a button cut off by its card or covered fails one of them.
        const middle = box.top + box.height / 2;
        return [
          [box.left + box.width * 0.1, middle],
          [box.right - box.width * 0.1, middle],
        ].every(([x, y]) => element.contains(document.elementFromPoint(x!, y!))) && box.left >= 0 && box.right <= window.innerWidth;
      });
      await screenshot(page, `signin-consent-${language}-${viewport.width}`);
      t.true(whole, `the ${approve} button is whole and on top at ${viewport.width} px`);
      await screenshot(page, `signin-consent-${language}-${viewport.width}`);
      t.deepEqual(pageErrors, []);
    }
  }
});

test.serial('the nickname asked for at registration is what the sidebar and the account show', async (t) => {
  for (const [language, texts] of [
    ['zh', { user: '用户名', nickname: '昵称', email: '邮箱', password: '密码', confirm: '确认密码', register: '注册' }],
    ['en', { user: 'Username', nickname: 'Nickname', email: 'E-mail', password: 'Password', confirm: 'Confirm password', register: 'Register' }],
  ] as const) {
    const username = `nick${language}${Date.now().toString(36)}`;
    const nickname = language === 'zh' ? '林小满' : 'Robin';
    const page = await visitor(t, suite.browser, language);
    await page.goto(`${suite.app.url}/register`);
    await page.getByLabel(texts.user).fill(username);
    await page.getByLabel(texts.nickname).fill(nickname);
    await page.getByLabel(texts.email).fill(`${username}@example.com`);
    await page.getByLabel(texts.password, { exact: true }).fill('correct horse battery');
    await page.getByLabel(texts.confirm).fill('correct horse battery');
    await page.getByRole('button', { name: texts.register, exact: true }).click();
    await page.waitForURL(/\/research/);
    const button = page.locator('.user-button');
    await button.locator('.user-button-name', { hasText: nickname }).waitFor();
    await button.click();
    await page.getByRole('heading', { name: nickname, level: 2 }).waitFor();
    t.true(await page.getByText(`@${username}`).isVisible(), 'the user name is still there, beside it');
    await screenshot(page, `signin-nickname-${language}`);
  }
});
