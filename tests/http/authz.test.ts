import test from 'ava';
import { dayKey } from '@scriptorium/infra/time';
import { client, signUp, startTestApp, type TestApp } from '../support/app.ts';

/**
 * Every route of the accounts issue × {anonymous, user, other user, admin, deactivated user}.
 * A refusal must carry the catalogue's status and leave the log as it was.
 */

type Role = 'anonymous' | 'user' | 'other' | 'admin' | 'inactive';
type Access = 'public' | 'self' | 'user' | 'owner' | 'admin';

interface Route {
  method: string;
  path: string;
  body?: unknown;
  form?: boolean;
  access: Access;
  /** Logout revokes the token it is sent with, so it gets a fresh one. */
  freshToken?: boolean;
}

const ROLES: Role[] = ['anonymous', 'user', 'other', 'admin', 'inactive'];
const PASSWORD = 'correct horse battery';
const USERNAMES: Record<Exclude<Role, 'anonymous'>, string> = { user: 'alice', other: 'bob', admin: 'root', inactive: 'dora' };

function expected(access: Access, role: Role): 'ok' | 401 | 403 {
  if (access === 'public') return 'ok';
  if (role === 'anonymous') return 401;
  if (access === 'self') return 'ok';
  if (role === 'inactive') return 403;
  if (access === 'user') return 'ok';
  if (access === 'owner') return role === 'other' ? 403 : 'ok';
  return role === 'admin' ? 'ok' : 403;
}

let app: TestApp;
const tokens = {} as Record<Role, string | undefined>;
let aliceId = '';

test.before(async () => {
  app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' });
  const alice = await signUp(app.url, 'alice', PASSWORD);
  aliceId = alice.userId;
  tokens.user = alice.token;
  tokens.other = (await signUp(app.url, 'bob', PASSWORD)).token;
  const dora = await signUp(app.url, 'dora', PASSWORD);
  tokens.inactive = dora.token;
  tokens.admin = (await client(app.url).request('POST', '/backend/auth/login', { username: 'root', password: 'root-password' }, { form: true })).body.access_token;
  const off = await client(app.url, tokens.admin).request('PUT', `/backend/auth/admin/users/${dora.userId}/active`, { is_active: false });
  if (off.status !== 200) throw new Error(`could not deactivate dora: ${off.status}`);
});
test.after.always(async () => {
  await app?.stop();
});

function routes(role: Role): Route[] {
  const today = dayKey(new Date(), app.services.config.TIME_ZONE).replaceAll('-', '');
  const a = aliceId;
  return [
    { method: 'POST', path: '/backend/auth/register', access: 'public', body: { username: `reg_${role}`, email: `reg-${role}@example.com`, password: PASSWORD } },
    { method: 'POST', path: '/backend/auth/login', access: 'public', form: true, body: { username: 'alice', password: PASSWORD } },
    { method: 'POST', path: '/backend/auth/admin/login', access: 'public', form: true, body: { username: 'root', password: 'root-password' } },
    { method: 'GET', path: '/backend/auth/registration-settings', access: 'public' },
    { method: 'POST', path: '/backend/auth/send-verification-email', access: 'public', body: { email: `send-${role}@example.com` } },
    { method: 'POST', path: '/backend/auth/resend-verification-email', access: 'public', body: { email: `resend-${role}@example.com` } },
    { method: 'POST', path: '/backend/auth/verify-email', access: 'public', body: { email: `send-${role}@example.com`, code: '123456' } },
    { method: 'GET', path: '/backend/auth/me', access: 'self' },
    { method: 'POST', path: '/backend/auth/logout', access: 'user', freshToken: true },
    { method: 'PATCH', path: `/backend/users/${a}`, access: 'owner', body: { nickname: 'Alice' } },
    { method: 'GET', path: '/backend/auth/user/token-info', access: 'user' },
    { method: 'GET', path: '/backend/auth/user/token-usage', access: 'user' },
    { method: 'GET', path: '/backend/conversation/api/user/token-usage', access: 'user' },
    { method: 'GET', path: '/backend/api/tasks/types', access: 'user' },
    { method: 'POST', path: '/backend/api/tasks/init', access: 'user' },
    { method: 'POST', path: '/backend/api/tasks/ensure-daily', access: 'user' },
    { method: 'GET', path: '/backend/api/tasks/summary', access: 'user' },
    { method: 'POST', path: '/backend/api/tasks/action', access: 'user', body: { action_type: 'view_cognition', target_id: 'authz' } },
    { method: 'POST', path: `/backend/api/tasks/claim/view_cognition-${today}`, access: 'user' },
    { method: 'POST', path: '/backend/api/cognition/authz-cognition/view', access: 'user' },
    { method: 'GET', path: '/backend/api/coins/balance', access: 'user' },
    { method: 'POST', path: '/backend/email/user-feedback', access: 'user', body: { feedback_type: 'general', feedback_text: '权限矩阵' } },
    { method: 'GET', path: '/backend/auth/admin/users', access: 'admin' },
    { method: 'PUT', path: `/backend/auth/admin/users/${a}/active`, access: 'admin', body: { is_active: true } },
    { method: 'POST', path: '/backend/auth/admin/users/batch-active', access: 'admin', body: { user_ids: [a], is_active: true } },
    { method: 'GET', path: '/backend/auth/admin/users/token-overview', access: 'admin' },
    { method: 'GET', path: `/backend/auth/admin/users/${a}/token-info`, access: 'admin' },
    { method: 'GET', path: `/backend/auth/admin/users/${a}/token-usage`, access: 'admin' },
    { method: 'PUT', path: `/backend/auth/admin/users/${a}/token-limit`, access: 'admin', body: { token_level_limit: 150 } },
    { method: 'POST', path: `/backend/auth/admin/users/${a}/extra-budget`, access: 'admin', body: { amount: 1 } },
    { method: 'PUT', path: `/backend/auth/admin/users/${a}/level`, access: 'admin', body: { user_id: a, level: 'premium', membership_expires_at: '2099-01-01T00:00:00Z' } },
    { method: 'POST', path: `/backend/auth/admin/users/${a}/refresh-tokens`, access: 'admin' },
    { method: 'POST', path: '/backend/auth/admin/users/batch-refresh-tokens', access: 'admin', body: { user_ids: [a] } },
    { method: 'POST', path: '/backend/auth/admin/users/batch-update-level', access: 'admin', body: [{ user_id: a, level: 'basic', membership_expires_at: null }] },
    { method: 'PUT', path: '/backend/auth/admin/users/batch-token-limit', access: 'admin', body: { user_ids: [a], token_level_limit: 100 } },
    { method: 'POST', path: '/backend/auth/admin/users/batch-extra-budget', access: 'admin', body: { user_ids: [a], amount: 1 } },
    { method: 'POST', path: '/backend/auth/admin/invite-codes/generate', access: 'admin', body: { count: 1 } },
    { method: 'GET', path: '/backend/auth/admin/invite-codes', access: 'admin' },
    { method: 'POST', path: '/backend/auth/admin/send-email', access: 'admin', body: { to_email: 'x@example.com', subject: '主题', content: '内容' } },
    { method: 'GET', path: '/backend/auth/admin/feedback', access: 'admin' },
    { method: 'GET', path: '/backend/auth/admin/outbox', access: 'admin' },
    { method: 'GET', path: '/backend/conversation/api/admin/token-usage', access: 'admin' },
    { method: 'GET', path: '/backend/conversation/api/admin/sessions-token-usage', access: 'admin' },
  ];
}

async function tokenFor(role: Role, fresh: boolean): Promise<string | undefined> {
  if (role === 'anonymous' || !fresh) return tokens[role];
  const password = role === 'admin' ? 'root-password' : PASSWORD;
  return (await client(app.url).request('POST', '/backend/auth/login', { username: USERNAMES[role], password }, { form: true })).body.access_token;
}

const settle = () => app.settle();

for (const role of ROLES) {
  test.serial(`every route, as ${role}`, async (t) => {
    for (const route of routes(role)) {
      const want = expected(route.access, role);
      const caller = client(app.url, await tokenFor(role, route.freshToken ?? false));
      await settle();
      const before = await app.services.events.headPosition();
      const response = await caller.request(route.method, route.path, route.body, { form: route.form ?? false });
      const label = `${role} ${route.method} ${route.path} → ${response.status} ${JSON.stringify(response.body).slice(0, 120)}`;
      if (want === 'ok') {
        t.true(response.status < 500 && response.status !== 401 && response.status !== 403, label);
        continue;
      }
      t.is(response.status, want, label);
      t.is(response.body.detail, want === 401 ? '认证失败，请重新登录' : role === 'inactive' ? '账户已停用，请联系管理员' : '权限不足，无法访问', label);
      t.is(await app.services.events.headPosition(), before, `${label} changed nothing`);
    }
  });
}
