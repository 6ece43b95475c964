/**
 * The account screens in a real browser against the real server: the user status dialog (quota,
 * tasks, feedback), e-mail verification with the code the server mailed, one task reward claimed
 * (after a claim the server fails), and the admin console (/manage) raising that user's limit. Mail
 * goes to the development outbox, which the admin reads. Serves frontend/dist: run `npm run build` first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { Page, Route } from 'playwright-core';
import { screenshot } from '../support/browser.ts';
import { productInBrowser } from '../support/browserProduct.ts';
import { startProduct } from '../support/product.ts';
import { client } from '../support/app.ts';
import { BATTERY_NOTES, cognitionFromNotes } from '../support/cognition.ts';

const ADMIN = { username: 'chief', password: 'admin-password-1' };
const PASSWORD = 'correct-horse-1';

const running = productInBrowser('account', { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, SMTP_URL: '' });

async function call<T>(path: string, options: { method?: string; token?: string; json?: unknown; form?: Record<string, string> } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const response = await fetch(`${running.product.url}/backend${path}`, { method: options.method ?? (body ? 'POST' : 'GET'), headers, ...(body !== undefined && { body }) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const adminToken = async () => (await call<{ access_token: string }>('/auth/login', { form: ADMIN })).access_token;

/** The newest code mailed to an address, read from the development outbox as an admin would. */
async function mailedCode(email: string): Promise<string> {
  const token = await adminToken();
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const { mails } = await call<{ mails: Array<{ to: string[]; subject: string; text: string }> }>('/auth/admin/outbox?limit=20', { token });
    const mail = mails.find((candidate) => candidate.to.includes(email) && /验证码/.test(candidate.subject));
    const code = mail && /(\d{6})/.exec(mail.subject)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no code mailed to ${email}`);
}

async function register(page: Page, username: string, extra: { inviteCode?: string } = {}) {
  await page.goto(`${running.product.url}/register`, { waitUntil: 'networkidle' });
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('昵称').fill('读者');
  await page.getByLabel('邮箱').fill(`${username}@example.com`);
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByLabel('确认密码').fill(PASSWORD);
  if (extra.inviteCode) await page.getByLabel(/邀请码/).fill(extra.inviteCode);
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await page.waitForURL(/\/research/);
}

async function openStatus(page: Page) {
  await page.locator('.user-button').click();
  const dialog = page.getByRole('dialog', { name: '账户状态' });
  await dialog.getByText('今日额度').waitFor();
  await dialog.locator('.task').first().waitFor();
  return dialog;
}

async function dismissTips(page: Page) {
  const tip = page.getByRole('button', { name: '知道了' });
  while (await tip.isVisible().catch(() => false)) {
    await tip.click();
    await page.waitForTimeout(400);
  }
}

test.serial('a user sees quota, tasks and feedback, verifies the e-mail, claims a reward once; the admin raises the limit', async (t) => {
  const errors: string[] = [];
  const context = await running.browser.newContext({ viewport: { width: 1440, height: 960 }, locale: 'zh-CN' });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));

  const username = `reader${Date.now().toString(36)}`;
  const email = `${username}@example.com`;
  await page.goto(`${running.product.url}/register`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: '发送验证码' }).waitFor();
  t.true(await page.getByRole('button', { name: '发送验证码' }).isDisabled(), 'send-code needs an e-mail first');
  await screenshot(page, 'account-register');
  await register(page, username);
  await page.waitForTimeout(800);
  await dismissTips(page);

  // The dialog: profile, quota, usage, tasks, feedback.
  let dialog = await openStatus(page);
  t.true(await dialog.getByText('标准用户').or(dialog.getByText('基础用户')).first().isVisible(), 'a user group is shown');
  t.true(await dialog.getByText('已用 0 / 100').isVisible(), 'the default daily limit is 100');
  t.is(await dialog.getByText('额外额度').count(), 0, 'no extra budget, no extra line');
  t.true(await dialog.getByText('使用统计').isVisible());
  t.true(await dialog.getByText('今日任务').isVisible());
  t.true(await dialog.getByText('意见反馈').isVisible());
  t.is(await dialog.getByRole('button', { name: '领取奖励' }).count(), 0, 'nothing to claim yet');
  const box = await dialog.boundingBox();
  t.true(box !== null && box.width <= 900, 'the dialog is at most 900 px wide');
  await screenshot(page, 'account-dialog');

  // E-mail verification with the code the server mailed.
  await dialog.getByRole('button', { name: '验证邮箱' }).click();
  const modal = page.getByRole('dialog', { name: '验证邮箱' });
  await modal.getByText('验证码已发送到您的邮箱').waitFor();
  t.true(await modal.getByRole('button', { name: /秒后可重新发送/ }).isDisabled(), 'resend waits for the countdown');
  t.regex((await modal.getByRole('button', { name: /秒后可重新发送/ }).innerText()).trim(), /^1[12]\d 秒后可重新发送$/);
  const code = await mailedCode(email);
  // Closed and opened again within the countdown: the code already mailed still verifies.
  await page.keyboard.press('Escape');
  await modal.waitFor({ state: 'detached' });
  await dialog.getByRole('button', { name: '验证邮箱' }).click();
  await modal.getByText('验证码刚刚已发送，请输入邮件中的验证码').waitFor();
  t.true(await modal.getByRole('button', { name: /秒后可重新发送/ }).isDisabled(), 'the countdown resumes');
  await screenshot(page, 'account-verify-reopened');
  const input = modal.getByLabel('验证码');
  await input.fill(`${code.slice(0, 5)}x`);
  t.is(await input.inputValue(), code.slice(0, 5), 'digits only');
  t.true(await modal.getByRole('button', { name: '验证', exact: true }).isDisabled(), 'verify waits for six digits');
  await screenshot(page, 'account-verify');
  const modalBox = await modal.boundingBox();
  t.true(modalBox !== null && modalBox.width <= 500, 'the modal is at most 500 px wide');
  await input.fill(code);
  await modal.getByRole('button', { name: '验证', exact: true }).click();
  await modal.getByText('邮箱验证成功').waitFor();
  await screenshot(page, 'account-verified');
  await modal.getByRole('button', { name: '完成' }).click();
  await dialog.getByText('已验证', { exact: true }).waitFor();
  t.true(await dialog.isVisible(), 'the status dialog stays open');

  // Complete a task (three distinct cognition views), then claim it from the dialog.
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  t.truthy(token);
  // The administrator publishes three cognitions for the user to read.
  const author = client(running.product.url, await adminToken());
  const third = { name: '长时储能', content: '电网侧储能需要长时储能技术。长时储能的成本决定了电网侧储能的规模。液流电池适合长时储能。' };
  for (const note of [...BATTERY_NOTES, third]) {
    const id = await cognitionFromNotes(author, [note]);
    await author.request('PATCH', `/backend/api/cognition/${id}`, { public: true });
    await call(`/api/cognition/${id}/view`, { method: 'POST', token: token! });
  }
  await page.keyboard.press('Escape');
  dialog = await openStatus(page);
  const claim = dialog.getByRole('button', { name: '领取奖励' });
  t.is(await claim.count(), 1, 'one task is ready to claim');
  // A second tab shows the same reward, still unclaimed.
  const other = await page.context().newPage();
  await other.goto(page.url());
  await dismissTips(other);
  const otherDialog = await openStatus(other);
  const otherClaim = otherDialog.getByRole('button', { name: '领取奖励' });
  await otherClaim.waitFor();
  // A claim the server fails: busy while it is out, then the failure in place and the button ready again.
  let held: (route: Route) => void = () => undefined;
  const arrived = new Promise<Route>((resolve) => (held = resolve));
  await page.route('**/api/tasks/claim/**', (route) => held(route), { times: 1 });
  await claim.click();
  const failing = await arrived;
  const busyClaim = dialog.getByRole('button', { name: '领取中…' });
  await busyClaim.waitFor();
  t.true(await busyClaim.isDisabled(), 'busy while the claim is out');
  await failing.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ detail: 'unavailable' }) });
  await dialog.getByText('领取失败，请稍后重试').waitFor();
  await claim.waitFor();
  t.true(await claim.isEnabled(), 'a failed claim can be tried again');
  await claim.click();
  await dialog.getByText('奖励领取成功，获得 20 认知币').waitFor();
  t.is(await dialog.getByText('领取失败，请稍后重试').count(), 0, 'the notice is the latest claim’s');
  await dialog.locator('.task-claimed-mark').first().waitFor();
  t.is(await dialog.getByRole('button', { name: '领取奖励' }).count(), 0, 'claimed once, the button is gone');
  await screenshot(page, 'account-claimed');
  // Claimed in the first tab: the second learns it from its own try, without a failure to retry.
  await otherClaim.click();
  await otherDialog.locator('.task-claimed-mark').first().waitFor();
  t.is(await otherDialog.getByRole('button', { name: '领取奖励' }).count(), 0);
  t.is(await otherDialog.getByText('领取失败，请稍后重试').count(), 0);
  await other.close();

  // Feedback: blank cannot be sent; a sent one shows the banner for five seconds.
  await dialog.getByRole('button', { name: /问题报告/ }).click();
  const text = dialog.getByLabel('反馈内容');
  t.is(await text.getAttribute('rows'), '8');
  t.true(await dialog.getByRole('button', { name: '发送', exact: true }).isDisabled(), 'blank feedback cannot be sent');
  await text.fill('导出 PDF 时中文标题显示为方块。');
  await screenshot(page, 'account-feedback-form');
  await dialog.getByRole('button', { name: '发送', exact: true }).click();
  await dialog.getByText('反馈已发送，谢谢').waitFor();
  await screenshot(page, 'account-feedback-sent');
  // The banner goes by itself (after five seconds); on a loaded machine the page's timer fires later.
  await dialog.getByText('反馈已发送，谢谢').waitFor({ state: 'detached' });

  // English: the same dialog, the claim message in the user's language.
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'English' }).click();
  await page.locator('.user-button').click();
  const english = page.getByRole('dialog', { name: 'Account status' });
  await english.getByText("Today's quota").waitFor();
  await english.locator('.task').first().waitFor();
  for (const name of ['Browse cognition', 'Take a note', 'Finish a research report', 'Chat with AI']) t.true(await english.getByText(name, { exact: true }).isVisible(), `${name} in English`);
  t.true(await english.getByText('View 3 different cognition entries today').isVisible());
  t.is(await english.getByText('浏览认知').count(), 0, 'no task in Chinese');
  await screenshot(page, 'account-dialog-en');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: '中文' }).click();

  // The admin, in another browser: /manage, an invite code, the user's limit raised and extra budget added.
  const adminContext = await running.browser.newContext({ viewport: { width: 1440, height: 960 }, locale: 'zh-CN' });
  const admin = await adminContext.newPage();
  admin.on('pageerror', (error) => errors.push(error.message));
  await admin.goto(`${running.product.url}/login?redirect=/manage`, { waitUntil: 'networkidle' });
  await admin.getByLabel('用户名').fill(ADMIN.username);
  await admin.getByLabel('密码').fill(ADMIN.password);
  await admin.getByRole('button', { name: '登录', exact: true }).click();
  await admin.getByRole('heading', { name: '管理后台' }).waitFor();
  await admin.getByRole('row', { name: new RegExp(username) }).waitFor();
  await screenshot(admin, 'manage-users');

  await admin.getByRole('tab', { name: '邀请码' }).click();
  await admin.getByLabel('数量').fill('3');
  await admin.getByRole('button', { name: '生成邀请码' }).click();
  await admin.getByText('已生成 3 个邀请码').waitFor();
  await admin.locator('.row-fresh').nth(2).waitFor();
  t.is(await admin.locator('.row-fresh').count(), 3, 'three new codes are listed');
  await admin.getByRole('button', { name: '未使用' }).click();
  await admin.locator('.invite-code').first().waitFor();
  await screenshot(admin, 'manage-invites');

  await admin.getByRole('tab', { name: '用户', exact: true }).click();
  await admin.getByRole('searchbox').fill(username);
  await admin.getByRole('searchbox').press('Enter');
  await admin.getByRole('button', { name: `编辑 ${username}` }).click();
  const editor = admin.getByRole('dialog', { name: `编辑用户 · ${username}` });
  // The server's refusal of one value goes once the value changes (here to one the browser itself blocks).
  await editor.getByLabel('每日额度（认知币）').fill('99999999999');
  await editor.getByRole('button', { name: '更新额度' }).click();
  const refusal = editor.getByRole('alert');
  await refusal.waitFor();
  await editor.getByLabel('每日额度（认知币）').fill('1.5');
  await refusal.waitFor({ state: 'detached' });
  await editor.getByLabel('每日额度（认知币）').fill('500');
  await editor.getByRole('button', { name: '更新额度' }).click();
  await editor.getByText(/当前：每日额度 500/).waitFor();
  await editor.getByLabel('追加额外额度').fill('50');
  await editor.getByRole('button', { name: '追加' }).click();
  await editor.getByText(/额外额度 50/).waitFor();
  await screenshot(admin, 'manage-user-editor');
  // A new level asks whether its default limit replaces the one just set; keeping it keeps 500.
  await editor.getByRole('combobox', { name: '等级' }).click();
  await admin.getByRole('option', { name: 'VIP 用户' }).click();
  // A past expiry is refused before that question, and the last action's "saved" goes.
  await editor.getByText('已保存').waitFor();
  await editor.getByLabel('会员到期时间').fill('2020-01-01T08:00');
  await editor.getByRole('button', { name: '更新等级' }).click();
  await editor.getByText('会员到期时间必须晚于当前时间').waitFor();
  t.is(await editor.getByText('已保存').count(), 0);
  t.is(await admin.getByRole('alertdialog').count(), 0);
  await editor.getByLabel('会员到期时间').fill('');
  await editor.getByRole('button', { name: '更新等级' }).click();
  const question = admin.getByRole('alertdialog', { name: '每日额度如何处理？' });
  await question.getByText(/默认每日额度为 1,000/).waitFor();
  await screenshot(admin, 'manage-level-limit-question');
  await question.getByRole('button', { name: '保留当前额度 500' }).click();
  await question.waitFor({ state: 'detached' });
  await editor.getByText(/当前：每日额度 500/).waitFor();
  await editor.getByRole('button', { name: '关闭' }).first().click();
  const row = admin.getByRole('row', { name: new RegExp(username) });
  await row.getByRole('cell', { name: '500', exact: true }).waitFor();
  t.true(await row.getByText('VIP 用户').isVisible(), 'the level changed');

  await admin.getByRole('tab', { name: 'Token 用量' }).click();
  await admin.getByText('用户用量总览').or(admin.getByText('本页今日已用')).first().waitFor();
  await screenshot(admin, 'manage-usage');

  await admin.getByRole('tab', { name: '发送邮件' }).click();
  await admin.getByLabel('收件人').fill(email);
  await admin.getByLabel('主题').fill('欢迎使用 Scriptorium');
  await admin.getByLabel('内容').fill('你的每日额度已提升到 500。');
  await admin.getByRole('button', { name: '发送邮件' }).click();
  await admin.getByText(`邮件已发送至 ${email}`).waitFor();
  await screenshot(admin, 'manage-mail');

  await admin.getByRole('tab', { name: '用户反馈' }).click();
  await admin.getByText('导出 PDF 时中文标题显示为方块。').waitFor();
  await screenshot(admin, 'manage-feedback');

  await admin.getByRole('tab', { name: '发件箱' }).click();
  await admin.getByText('你的每日额度已提升到 500。').waitFor();
  await screenshot(admin, 'manage-outbox');

  await admin.getByRole('link', { name: '统计看板' }).click();
  await admin.getByRole('heading', { name: '统计看板' }).waitFor();
  await admin.getByRole('img', { name: '近 14 天 Token 用量' }).waitFor();
  t.true(await admin.getByText('公开认知').isVisible());
  await screenshot(admin, 'admin-dashboard');

  // Back to the user: the raised limit and the extra budget.
  dialog = await openStatus(page);
  await dialog.getByText('已用 0 / 500').waitFor();
  t.true(await dialog.getByText('额外额度').isVisible(), 'extra budget is shown once above 0');
  t.true(await dialog.getByText('总可用').isVisible());
  await screenshot(page, 'account-dialog-raised');

  // Logged out: the welcome text and the login button.
  await dialog.getByRole('button', { name: '退出登录' }).click();
  await page.locator('.user-button').click();
  const welcome = page.getByRole('dialog', { name: '账户状态' });
  await welcome.getByRole('heading', { name: '欢迎使用 Scriptorium' }).waitFor();
  await screenshot(page, 'account-signed-out');
  await welcome.getByRole('link', { name: '登录' }).click();
  await page.waitForURL(/\/login/);

  // A signed-in user who is not an admin is turned away from /manage.
  t.deepEqual(errors, []);
  await adminContext.close();
  await context.close();
});

test.serial('a non-admin user cannot open the admin console', async (t) => {
  const context = await running.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
  const page = await context.newPage();
  await register(page, `plain${Date.now().toString(36)}`);
  await page.goto(`${running.product.url}/manage`, { waitUntil: 'networkidle' });
  await page.getByText('权限不足').or(page.getByText('禁止访问')).first().waitFor();
  t.is(await page.getByRole('heading', { name: '管理后台' }).count(), 0);
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const refused = await fetch(`${running.product.url}/backend/auth/admin/users`, { headers: { Authorization: `Bearer ${token}` } });
  t.is(refused.status, 403, 'the server refuses too');
  await screenshot(page, 'manage-forbidden');
  await context.close();
});

test.serial('an account deactivated while its page is open goes to the inactive-account page and stays there on reload, still signed in', async (t) => {
  const context = await running.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
  const page = await context.newPage();
  const username = `paused${Date.now().toString(36)}`;
  await register(page, username);
  await page.locator('.composer textarea, textarea').first().waitFor();
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const me = await call<{ _id: string }>('/auth/me', { token: token! });
  await call(`/auth/admin/users/${me._id}/active`, { method: 'PUT', token: await adminToken(), json: { is_active: false } });
  await page.waitForURL(/\/draft/);
  await page.getByText('账户未激活').first().waitFor();
  t.is(await page.evaluate(() => localStorage.getItem('auth_token')), token, 'the sign-in is kept: the account is inactive, not signed out');
  await screenshot(page, 'account-deactivated-open-page');

  await page.goto(`${running.product.url}/research`, { waitUntil: 'networkidle' });
  await page.waitForURL(/\/draft/);
  // The account's state is shown once the server has answered for it, the moment a refused token would have sent the page to sign-in.
  await page.getByText('账户未激活').first().waitFor();
  t.regex(page.url(), /\/draft$/, 'a full load of /research ends on the draft page, not at sign-in');
  t.is(await page.evaluate(() => localStorage.getItem('auth_token')), token);
  await context.close();
});

test.serial('registration asks for an invite code when the server requires one, and takes a mailed e-mail code', async (t) => {
  const strictDir = mkdtempSync(join(tmpdir(), 'scriptorium-invite-'));
  const strict = await startProduct(strictDir, { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, SMTP_URL: '', INVITE_CODE_REQUIRED: 'true' });
  const api = async <T>(path: string, init: { token?: string; json?: unknown; form?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = init.token ? { Authorization: `Bearer ${init.token}` } : {};
    let body: string | undefined;
    if (init.json !== undefined) [headers['Content-Type'], body] = ['application/json', JSON.stringify(init.json)];
    if (init.form) [headers['Content-Type'], body] = ['application/x-www-form-urlencoded', new URLSearchParams(init.form).toString()];
    const response = await fetch(`${strict.url}/backend${path}`, { method: body ? 'POST' : 'GET', headers, ...(body !== undefined && { body }) });
    t.true(response.ok, path);
    return (await response.json()) as T;
  };
  const context = await running.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'zh-CN' });
  try {
    const page = await context.newPage();
    const username = `invited${Date.now().toString(36)}`;
    const email = `${username}@example.com`;
    await page.goto(`${strict.url}/register`, { waitUntil: 'networkidle' });
    const invite = page.getByLabel(/邀请码/);
    await page.getByPlaceholder('请输入邀请码').waitFor();
    t.is(await page.locator('.field', { has: invite }).getByText('可选').count(), 0, 'the invite code is not marked optional');
    await page.getByLabel('用户名').fill(username);
    await page.getByLabel('昵称').fill('受邀者');
    await page.getByLabel('邮箱').fill(email);
    await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await page.getByLabel('确认密码').fill(PASSWORD);
    await page.getByRole('button', { name: '注册', exact: true }).click();
    await page.getByText('请填写邀请码').waitFor();

    // The optional e-mail code: sent from the form, read from the outbox.
    await page.getByRole('button', { name: '发送验证码' }).click();
    await page.getByText('验证码已发送到您的邮箱').waitFor();
    t.true(await page.getByRole('button', { name: /^1[12]\d 秒$/ }).isDisabled(), 'the send button counts down');
    const admin = (await api<{ access_token: string }>('/auth/login', { form: ADMIN })).access_token;
    const { mails } = await api<{ mails: Array<{ to: string[]; subject: string }> }>('/auth/admin/outbox', { token: admin });
    const code = /(\d{6})/.exec(mails.find((mail) => mail.to.includes(email))!.subject)![1]!;
    await page.getByPlaceholder('6 位数字').fill(code);
    await screenshot(page, 'account-register-invite');

    const { invite_codes } = await api<{ invite_codes: Array<{ code: string }> }>('/auth/admin/invite-codes/generate', { token: admin, json: { count: 1 } });
    await invite.fill(invite_codes[0]!.code);
    await page.getByRole('button', { name: '注册', exact: true }).click();
    await page.waitForURL(/\/research/);
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    const me = await api<{ email_verified: boolean }>('/auth/me', { token: token! });
    t.true(me.email_verified, 'the mailed code verified the address at registration');
  } finally {
    await context.close();
    strict.child.kill('SIGTERM');
    await strict.exited;
    rmSync(strictDir, { recursive: true, force: true });
  }
});

test.serial('registering a name that is taken marks the user name field, in Chinese and in English', async (t) => {
  const context = await running.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'zh-CN' });
  t.teardown(() => context.close());
  const page = await context.newPage();
  const username = `taken${Date.now().toString(36)}`;
  await register(page, username);
  await page.evaluate(() => localStorage.removeItem('auth_token'));
  for (const [language, field, taken] of [
    ['zh', '用户名', '用户名已被注册'],
    ['en', 'Username', 'This user name is already taken'],
  ] as const) {
    await page.evaluate((lang) => localStorage.setItem('app_language', lang), language);
    await page.goto(`${running.product.url}/register`, { waitUntil: 'networkidle' });
    const form = page.locator('form');
    // Sent empty, each required field says so; the nickname may stay empty (the user name stands in).
    await form.getByRole('button', { name: language === 'zh' ? '注册' : 'Register', exact: true }).click();
    await form.getByText(language === 'zh' ? '请填写用户名' : 'Username is required').waitFor();
    t.is(await form.getByLabel(language === 'zh' ? '昵称' : 'Nickname').getAttribute('aria-invalid'), null);
    await form.getByLabel(field, { exact: true }).fill(username);
    await form.getByLabel(language === 'zh' ? '昵称' : 'Nickname').fill('x');
    await form.getByLabel(language === 'zh' ? '邮箱' : 'E-mail').fill(`other-${username}@example.com`);
    await form.getByLabel(language === 'zh' ? '密码' : 'Password', { exact: true }).fill(PASSWORD);
    await form.getByLabel(language === 'zh' ? '确认密码' : 'Confirm password').fill(PASSWORD);
    await form.getByRole('button', { name: language === 'zh' ? '注册' : 'Register', exact: true }).click();
    const usernameField = page.locator('.field', { has: page.getByLabel(field, { exact: true }) });
    await usernameField.getByText(taken).waitFor();
    t.is(await form.getByLabel(field, { exact: true }).getAttribute('aria-invalid'), 'true');
    await screenshot(page, `account-register-taken-${language}`);
  }
});
