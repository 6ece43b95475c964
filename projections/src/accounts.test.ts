import test from 'ava';
import { initialSnapshot, type BudgetEvent } from '@scriptorium/domain/budget/budget';
import type { UserEvent } from '@scriptorium/domain/user/user';
import { ACCOUNTS, accountsProjection } from './accounts.ts';
import { registered, T1, T2, T3 } from './fixtures.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<UserEvent | BudgetEvent>(accountsProjection);
const DAY1 = '2026-03-01';
const DAY2 = '2026-03-02';
/** User events carry their own time under other names; the account reads the one the store recorded. */
const on = (at: string) => ({ metadata: { at } });
const stamp = (day: string, at: string) => ({ userId: 'u1', day, at, streamId: 'budget-u1' });
const charged = (coins: number, day: string, at: string): BudgetEvent => ({
  type: 'TokensCharged',
  data: { ...stamp(day, at), chargeId: `charge-${at}-${coins}`, sessionId: 's1', messageId: 'm1', tokens: coins * 1000, coins },
});

test('a registration opens an account with the basic budget', async (t) => {
  await spec.given(registered('u1', { username: 'Ada_L', isAdmin: true })).thenDoc(t, ACCOUNTS, 'u1', {
    username: 'Ada_L',
    username_lower: 'ada_l',
    email: 'u1@example.org',
    is_active: true,
    is_admin: true,
    email_verified: false,
    created_at: T1,
    level: 'basic',
    budget: initialSnapshot(),
    updated_at: T1,
  });
});

test('profile changes, verification, admin grant and (de)activation follow the user stream', async (t) => {
  const user = spec.given(registered('u1'), { type: 'UserProfileUpdated', data: { userId: 'u1', nickname: '艾达', email: 'new@example.org', updatedAt: T2 }, ...on(T2) });
  await user.thenDoc(t, ACCOUNTS, 'u1', { nickname: '艾达', email: 'new@example.org', email_verified: false, updated_at: T2 });
  await user.when({ type: 'EmailVerified', data: { userId: 'u1', email: 'u1@example.org', verifiedAt: T3 }, ...on(T3) }).thenDoc(t, ACCOUNTS, 'u1', { email_verified: false, updated_at: T2 });
  await user.when({ type: 'EmailVerified', data: { userId: 'u1', email: 'new@example.org', verifiedAt: T3 }, ...on(T3) }).thenDoc(t, ACCOUNTS, 'u1', { email_verified: true, updated_at: T3 });
  await user.when({ type: 'AdminRoleGranted', data: { userId: 'u1', grantedAt: T3 }, ...on(T3) }).thenDoc(t, ACCOUNTS, 'u1', { is_admin: true, updated_at: T3 });
  await user
    .when({ type: 'UserDeactivated', data: { userId: 'u1', by: 'admin', at: T2 } }, { type: 'UserReactivated', data: { userId: 'u1', by: 'admin', at: T3 } })
    .thenDoc(t, ACCOUNTS, 'u1', { is_active: true, updated_at: T3 });
});

test('charges count towards today and all time; closing the day starts today again', async (t) => {
  const charging = spec.given(registered('u1'), charged(12.5, DAY1, T1), charged(0.000_000_4, DAY1, T1), charged(7.25, DAY1, T2));
  await charging.thenDoc(t, ACCOUNTS, 'u1', { budget: { day: DAY1, usedToday: 19.75, allUsage: 19.75 } });
  await charging
    .when(
      { type: 'BudgetDayClosed', data: { ...stamp(DAY2, T3), closedDay: DAY1, usedCoins: 19.75, limitCoins: 100, drawnFromExtra: 0, extraBudget: 5, refresh: false } },
      charged(3, DAY2, T3),
      // Charged late for a day already closed: all-time usage only.
      charged(2, DAY1, T3),
    )
    .thenDoc(t, ACCOUNTS, 'u1', { budget: { day: DAY2, usedToday: 3, allUsage: 24.75, extraBudget: 5, lastRefreshAt: null }, updated_at: T3 });
});

test("an admin's refresh is remembered", async (t) => {
  await spec
    .given(registered('u1'), { type: 'BudgetDayClosed', data: { ...stamp(DAY1, T2), closedDay: DAY1, usedCoins: 0, limitCoins: 100, drawnFromExtra: 0, extraBudget: 0, refresh: true } })
    .thenDoc(t, ACCOUNTS, 'u1', { budget: { lastRefreshAt: T2 } });
});

test('limits, extra budget and membership change the budget and the level filtered on', async (t) => {
  const member = spec.given(
    registered('u1'),
    { type: 'TokenLimitSet', data: { ...stamp(DAY1, T1), tokenLevelLimit: 150, by: 'admin' } },
    { type: 'ExtraBudgetAdded', data: { ...stamp(DAY1, T1), amount: 0.1, by: 'admin' } },
    { type: 'ExtraBudgetAdded', data: { ...stamp(DAY1, T1), amount: 0.2, by: 'admin' } },
    { type: 'MembershipLevelSet', data: { ...stamp(DAY1, T2), level: 'vip', membershipExpiresAt: T3, tokenLevelLimit: 1000, by: 'admin' } },
  );
  await member.thenDoc(t, ACCOUNTS, 'u1', { level: 'vip', budget: { level: 'vip', membershipExpiresAt: T3, tokenLevelLimit: 1000, extraBudget: 0.3, day: DAY1 } });
  await member
    .when({ type: 'MembershipExpired', data: { ...stamp(DAY2, T3), previousLevel: 'vip', tokenLevelLimit: 100 } })
    .then(t, ACCOUNTS, [{ _id: 'u1', budget: { level: 'basic', membershipExpiresAt: null, tokenLevelLimit: 100 } }], { filter: { level: 'basic' } });
});

test('a budget event before the registration is kept when the registration arrives', async (t) => {
  await spec
    .given({ type: 'TokenLimitSet', data: { ...stamp(DAY1, T1), tokenLevelLimit: 150, by: 'admin' } }, registered('u1', { registeredAt: T2 }))
    .thenDoc(t, ACCOUNTS, 'u1', { username: 'Reader_u1', level: 'basic', budget: { tokenLevelLimit: 150 }, created_at: T2 });
});

test('the admin console lists accounts by name, filtered by level or activity', async (t) => {
  await spec
    .given(registered('u1', { username: 'zoe' }), registered('u2', { username: 'Adam' }), registered('u3', { username: 'mia' }), { type: 'UserDeactivated', data: { userId: 'u3', by: 'admin', at: T2 } })
    .then(t, ACCOUNTS, [{ _id: 'u2' }, { _id: 'u1' }], { filter: { is_active: true }, sort: { username_lower: 1 } });
});
