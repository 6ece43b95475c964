import test from 'ava';
import { client, signInAdmin, signUp, startTestApp, type Client, type TestApp } from '../support/app.ts';

let app: TestApp;
let admin: Client;
test.before(async () => {
  app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' });
  admin = await signInAdmin(app.url);
});
test.after.always(async () => {
  await app?.stop();
});

const eventCount = () => app.services.events.headPosition();
const settle = () => app.settle();

test.serial('without SMTP the codes go to the outbox, where an admin reads them', async (t) => {
  const sent = await client(app.url).request('POST', '/backend/auth/send-verification-email', { email: 'ada@example.com' });
  t.is(sent.status, 200);
  await settle();
  const outbox = await admin.request('GET', '/backend/auth/admin/outbox');
  t.is(outbox.body.transport, 'outbox');
  const mail = outbox.body.mails[0];
  t.deepEqual(mail.to, ['ada@example.com']);
  const code = /验证码是：(\d{6})/.exec(mail.text)?.[1];
  t.truthy(code);
  const registered = await client(app.url).request('POST', '/backend/auth/register', { username: 'ada', email: 'ada@example.com', password: 'secret-password', email_verification_code: code });
  t.is(registered.status, 200);
  t.true(registered.body.email_verified);
  t.is((await admin.request('POST', '/backend/auth/admin/send-email', { to_email: 'ada@example.com', subject: '欢迎', content: '你好' })).status, 200);
  await settle();
  t.like((await admin.request('GET', '/backend/auth/admin/outbox')).body.mails[0], { subject: '欢迎', text: '你好' });
});

test.serial('invite codes: generated in batches, listed ten to a page, filtered by status', async (t) => {
  t.is((await admin.request('POST', '/backend/auth/admin/invite-codes/generate', { count: 0 })).status, 422);
  t.is((await admin.request('POST', '/backend/auth/admin/invite-codes/generate', { count: 101 })).status, 422);
  const generated = await admin.request('POST', '/backend/auth/admin/invite-codes/generate', { count: 12 });
  t.is(generated.body.count, 12);
  t.true(generated.body.invite_codes.every((code: { code: string; status: string }) => /^[2-9A-HJKMNP-Z]{8}$/.test(code.code) && code.status === 'unused'));
  const first = await admin.request('GET', '/backend/auth/admin/invite-codes');
  t.like(first.body, { total: 12, skip: 0, limit: 10, status: 'all' });
  t.is(first.body.invite_codes.length, 10);
  const rest = await admin.request('GET', '/backend/auth/admin/invite-codes?skip=10');
  t.is(rest.body.invite_codes.length, 2);
  const registered = await client(app.url).request('POST', '/backend/auth/register', { username: 'bea', email: 'bea@example.com', password: 'secret-password', invite_code: generated.body.invite_codes[0].code });
  t.is(registered.status, 200, 'an optional invite code is still redeemed when given');
  const used = await admin.request('GET', '/backend/auth/admin/invite-codes?status=used');
  t.like(used.body.invite_codes[0], { code: generated.body.invite_codes[0].code, status: 'used', used_by: registered.body.id, used_by_username: 'bea' });
  t.is((await admin.request('GET', '/backend/auth/admin/invite-codes?status=unused')).body.total, 11);
  t.is((await admin.request('GET', '/backend/auth/admin/invite-codes?status=lost')).status, 422);

  const withdrawn = generated.body.invite_codes[1].code as string;
  const revoked = await admin.request('POST', `/backend/auth/admin/invite-codes/${withdrawn.toLowerCase()}/revoke`);
  t.is(revoked.status, 200);
  t.like(revoked.body, { code: withdrawn, status: 'revoked' });
  t.like((await admin.request('POST', `/backend/auth/admin/invite-codes/${withdrawn}/revoke`)).body, { status: 'revoked' }, 'withdrawing twice changes nothing');
  const refused = await client(app.url).request('POST', '/backend/auth/register', { username: 'bob', email: 'bob@example.com', password: 'secret-password', invite_code: withdrawn });
  t.is(refused.status, 400);
  t.is(refused.body.detail, '邀请码无效');
  t.is((await admin.request('GET', '/backend/auth/admin/invite-codes?status=revoked')).body.invite_codes[0].code, withdrawn);
  t.is((await admin.request('POST', `/backend/auth/admin/invite-codes/${generated.body.invite_codes[0].code}/revoke`)).status, 409, 'a used code stays used');
  t.is((await admin.request('POST', '/backend/auth/admin/invite-codes/NOSUCH22/revoke')).status, 404);
});

test.serial('the user list searches by name or address prefix and filters by level and active flag', async (t) => {
  const carl = await signUp(app.url, 'carl');
  await signUp(app.url, 'carla');
  await signUp(app.url, 'dina');
  const byName = await admin.request('GET', '/backend/auth/admin/users?search=CAR');
  t.deepEqual(byName.body.users.map((user: { username: string }) => user.username), ['carl', 'carla']);
  t.like(byName.body.users[0], { user_level: 'basic', token_level_limit: 100, extra_budget: 0, membership_expires_at: null, is_active: true });
  const byEmail = await admin.request('GET', '/backend/auth/admin/users?search=dina@');
  t.deepEqual(byEmail.body.users.map((user: { username: string }) => user.username), ['dina']);
  await admin.request('PUT', `/backend/auth/admin/users/${carl.userId}/level`, { user_id: carl.userId, level: 'vip', membership_expires_at: '2099-01-01T00:00:00Z' });
  const vips = await admin.request('GET', '/backend/auth/admin/users?level=vip');
  t.deepEqual(vips.body.users.map((user: { username: string }) => user.username), ['carl']);
  t.like(vips.body.users[0], { user_level: 'vip', token_level_limit: 1000, membership_expires_at: '2099-01-01T00:00:00.000Z' });
  await admin.request('PUT', `/backend/auth/admin/users/${carl.userId}/active`, { is_active: false });
  const inactive = await admin.request('GET', '/backend/auth/admin/users?is_active=false');
  t.deepEqual(inactive.body.users.map((user: { username: string }) => user.username), ['carl']);
  const paged = await admin.request('GET', '/backend/auth/admin/users?limit=2');
  t.is(paged.body.users.length, 2);
  t.true(paged.body.total >= 5);
});

test.serial('single budget edits: limit, extra budget, level, refresh', async (t) => {
  const eve = await signUp(app.url, 'eve');
  const limit = await admin.request('PUT', `/backend/auth/admin/users/${eve.userId}/token-limit`, { token_level_limit: 250 });
  t.like(limit.body, { username: 'eve', token_level_limit: 250, total_available: 250 });
  const extra = await admin.request('POST', `/backend/auth/admin/users/${eve.userId}/extra-budget`, { amount: 30 });
  t.like(extra.body, { extra_budget: 30, total_available: 280 });
  const level = await admin.request('PUT', `/backend/auth/admin/users/${eve.userId}/level`, { user_id: eve.userId, level: 'premium', membership_expires_at: '2099-06-01' });
  t.like(level.body, { user_level: 'premium', token_level_limit: 300, extra_budget: 30 });
  const refreshed = await admin.request('POST', `/backend/auth/admin/users/${eve.userId}/refresh-tokens`);
  t.like(refreshed.body, { today_usage: 0, total_available: 330 });
  t.true(Date.parse(refreshed.body.last_refresh_date) > Date.now() - 60_000, 'the refresh is today’s last');
  t.like((await eve.request('GET', '/backend/auth/user/token-info')).body, { user_level: 'premium', total_available: 330 });
  t.like((await admin.request('GET', `/backend/auth/admin/users/${eve.userId}/token-info`)).body, { user_level: 'premium' });
});

test.serial('a level change keeps a hand-set daily limit when asked to, and applies the level default otherwise', async (t) => {
  const lev = await signUp(app.url, 'levi');
  await admin.request('PUT', `/backend/auth/admin/users/${lev.userId}/token-limit`, { token_level_limit: 250 });
  const kept = await admin.request('PUT', `/backend/auth/admin/users/${lev.userId}/level`, { user_id: lev.userId, level: 'vip', membership_expires_at: null, daily_limit: 'keep' });
  t.like(kept.body, { user_level: 'vip', token_level_limit: 250 });
  const applied = await admin.request('PUT', `/backend/auth/admin/users/${lev.userId}/level`, { user_id: lev.userId, level: 'premium', membership_expires_at: null, daily_limit: 'level_default' });
  t.like(applied.body, { user_level: 'premium', token_level_limit: 300 });
  await admin.request('PUT', `/backend/auth/admin/users/${lev.userId}/token-limit`, { token_level_limit: 260 });
  const batch = await admin.request('POST', '/backend/auth/admin/users/batch-update-level', [{ user_id: lev.userId, level: 'vip', membership_expires_at: null, daily_limit: 'keep' }]);
  t.like(batch.body.users[0], { user_level: 'vip', token_level_limit: 260 });
  const before = await eventCount();
  const refused = await admin.request('PUT', `/backend/auth/admin/users/${lev.userId}/level`, { level: 'basic', daily_limit: 'maybe' });
  t.is(refused.status, 422);
  t.is(refused.body.detail[0].code, 'admin.daily_limit_choice_invalid');
  t.is(await eventCount(), before);
});

test.serial('invalid edits are 422 and unknown users 404, and change nothing', async (t) => {
  const fay = await signUp(app.url, 'fay');
  const before = await eventCount();
  const refused = [
    await admin.request('PUT', `/backend/auth/admin/users/${fay.userId}/token-limit`, { token_level_limit: -1 }),
    await admin.request('PUT', `/backend/auth/admin/users/${fay.userId}/token-limit`, { token_level_limit: '100' }),
    await admin.request('POST', `/backend/auth/admin/users/${fay.userId}/extra-budget`, { amount: 0 }),
    await admin.request('PUT', `/backend/auth/admin/users/${fay.userId}/level`, { user_id: fay.userId, level: 'gold' }),
    await admin.request('PUT', `/backend/auth/admin/users/${fay.userId}/level`, { user_id: 'someone-else', level: 'vip' }),
    await admin.request('PUT', `/backend/auth/admin/users/${fay.userId}/level`, { level: 'vip', membership_expires_at: '2001-01-01' }),
    await admin.request('PUT', `/backend/auth/admin/users/${fay.userId}/level`, { level: 'vip', membership_expires_at: 'soon' }),
    await admin.request('PUT', '/backend/auth/admin/users/batch-token-limit', { user_ids: [], token_level_limit: 5 }),
  ];
  t.deepEqual(refused.map((response) => response.status), [422, 422, 422, 422, 422, 422, 422, 422]);
  const unknown = await admin.request('PUT', '/backend/auth/admin/users/nobody/token-limit', { token_level_limit: 5 });
  t.is(unknown.status, 404);
  const mixedBatch = await admin.request('POST', '/backend/auth/admin/users/batch-extra-budget', { user_ids: [fay.userId, 'nobody'], amount: 5 });
  t.is(mixedBatch.status, 404);
  t.is(await eventCount(), before);
  t.like((await admin.request('GET', `/backend/auth/admin/users/${fay.userId}/token-info`)).body, { token_level_limit: 100, extra_budget: 0 });
});

test.serial('batch edits apply to every listed user', async (t) => {
  const users = await Promise.all(['gus', 'hal', 'ivy'].map((name) => signUp(app.url, name)));
  const ids = users.map((user) => user.userId);
  const limits = await admin.request('PUT', '/backend/auth/admin/users/batch-token-limit', { user_ids: ids, token_level_limit: 120 });
  t.is(limits.body.updated, 3);
  const extra = await admin.request('POST', '/backend/auth/admin/users/batch-extra-budget', { user_ids: ids, amount: 10 });
  t.true(extra.body.users.every((user: { total_available: number }) => user.total_available === 130));
  const levels = await admin.request('POST', '/backend/auth/admin/users/batch-update-level', [
    { user_id: ids[0], level: 'vip', membership_expires_at: '2099-01-01T00:00:00Z' },
    { user_id: ids[1], level: 'basic', membership_expires_at: null },
  ]);
  t.deepEqual(levels.body.users.map((user: { user_level: string }) => user.user_level), ['vip', 'basic']);
  const refreshed = await admin.request('POST', '/backend/auth/admin/users/batch-refresh-tokens', { user_ids: ids });
  t.is(refreshed.body.updated, 3);
  const all = await admin.request('POST', '/backend/auth/admin/users/batch-refresh-tokens', {});
  t.true(all.body.updated >= 3, 'without user_ids every account is refreshed');
  const off = await admin.request('POST', '/backend/auth/admin/users/batch-active', { user_ids: ids, is_active: false });
  t.true(off.body.users.every((user: { is_active: boolean }) => !user.is_active));
});

test.serial('usage shows up per user and per session, for the user and the admin', async (t) => {
  const jon = await signUp(app.url, 'jon');
  const { body } = await jon.request('POST', '/backend/conversation/sessions', { client_id: 'jon' });
  await jon.request('POST', '/backend/api/v2/chat/poe/start', { session_id: body.session_id, text: '什么是读模型？' });
  for (;;) {
    if (!(await jon.request('GET', `/backend/conversation/research/${body.session_id}/status`)).body.processing) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await settle();
  const own = await jon.request('GET', '/backend/auth/user/token-usage');
  t.true(own.body.today.total_tokens > 0);
  t.is(own.body.sessions[0].session_id, body.session_id);
  t.deepEqual((await jon.request('GET', '/backend/conversation/api/user/token-usage')).body, own.body);
  const info = await jon.request('GET', '/backend/auth/user/token-info');
  t.is(info.body.today_usage, Math.round((own.body.today.total_tokens / 1000) * 1000) / 1000, 'charged from the same TokensConsumed events, in coins');
  const perUser = await admin.request('GET', `/backend/auth/admin/users/${jon.userId}/token-usage`);
  t.like(perUser.body, { username: 'jon', user_id: jon.userId });
  const everyone = await admin.request('GET', '/backend/conversation/api/admin/token-usage');
  t.true(everyone.body.users.some((user: { username: string; total_tokens: number }) => user.username === 'jon' && user.total_tokens === own.body.all_time.total_tokens));
  const sessions = await admin.request('GET', '/backend/conversation/api/admin/sessions-token-usage');
  t.like(sessions.body, { skip: 0, limit: 100 });
  t.like(sessions.body.sessions[0], { session_id: body.session_id, user_id: jon.userId, username: 'jon' });
  const overview = await admin.request('GET', '/backend/auth/admin/users/token-overview?search=jon');
  t.like(overview.body.users[0], { username: 'jon', today_usage: info.body.today_usage });
  t.is((await admin.request('GET', '/backend/conversation/api/admin/sessions-token-usage?limit=0')).status, 422);
});

test.serial('feedback needs text and a known type, and lands in the admin’s list', async (t) => {
  const kim = await signUp(app.url, 'kim');
  const before = await eventCount();
  t.is((await kim.request('POST', '/backend/email/user-feedback', { feedback_type: 'bug', feedback_text: '   ' })).status, 422);
  t.is((await kim.request('POST', '/backend/email/user-feedback', { feedback_type: 'praise', feedback_text: '很好' })).status, 422);
  t.is(await eventCount(), before);
  t.is((await kim.request('POST', '/backend/email/user-feedback', { feedback_type: 'feature', feedback_text: '希望支持导出' })).status, 200);
  const list = await admin.request('GET', '/backend/auth/admin/feedback?feedback_type=feature');
  t.like(list.body.feedback[0], { username: 'kim', feedback_type: 'feature', feedback_text: '希望支持导出' });
  await settle();
  const mailed = await admin.request('GET', '/backend/auth/admin/outbox');
  t.true(mailed.body.mails.some((mail: { subject: string; to: string[] }) => mail.subject.includes('用户反馈') && mail.to.includes('admin@scriptorium.local')));
});
