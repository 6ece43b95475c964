import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { BUDGET_EXHAUSTED, evolve, initialState, type BudgetEvent } from './budget.ts';
import { budgetDecider, type BudgetCommand } from './decide.ts';
import { startOfDay, tokenInfo } from './view.ts';

const spec = deciderSpec(budgetDecider);
const settings = { timeZone: 'Asia/Shanghai', tokensPerCoin: 1000 };
const T0 = '2026-03-01T02:00:00Z';
const user = { userId: 'u1', today: '2026-03-01' };

const hold = (holdId: string, now = T0, today = '2026-03-01', holdTokens = 8000): BudgetCommand => ({
  type: 'HoldBudget',
  data: { userId: 'u1', today, holdId, sessionId: 's1', messageId: `m-${holdId}`, holdTokens, tokensPerCoin: 1000, ttlSeconds: 1800 },
  metadata: at(now),
});
const held = (holdId: string, coins: number, atIso = '2026-03-01T02:00:00.000Z', day = '2026-03-01'): BudgetEvent => ({
  type: 'BudgetHeld',
  data: { userId: 'u1', day, at: atIso, holdId, sessionId: 's1', messageId: `m-${holdId}`, coins, expiresAt: new Date(Date.parse(atIso) + 1800_000).toISOString() },
});
const charged = (chargeId: string, tokens: number, messageId: string | null, day = '2026-03-01', atIso = '2026-03-01T02:00:00.000Z'): BudgetEvent => ({
  type: 'TokensCharged',
  data: { userId: 'u1', day, at: atIso, chargeId, sessionId: 's1', messageId, tokens, coins: tokens / 1000 },
});
const charge = (chargeId: string, tokens: number, messageId: string | null, day = '2026-03-01', now = T0): BudgetCommand => ({
  type: 'ChargeTokens',
  data: { userId: 'u1', today: day, chargeId, sessionId: 's1', messageId, tokens, tokensPerCoin: 1000 },
  metadata: at(now),
});
const fold = (events: BudgetEvent[]) => events.reduce(evolve, initialState());

test('a new user has the basic level and the default 100 coins a day', (t) => {
  const info = tokenInfo(initialState(), 'u1', new Date(T0), settings);
  t.like(info, { token_level_limit: 100, today_usage: 0, extra_budget: 0, total_available: 100, token_remaining: 100_000, user_level: 'basic', all_usage: 0 });
  t.is(info.last_refresh_date, startOfDay('2026-03-01', 'Asia/Shanghai').toISOString());
  t.is(info.last_refresh_date, '2026-02-28T16:00:00.000Z', 'local midnight in Shanghai');
  t.is(info.time_zone, 'Asia/Shanghai', 'the zone whose day that is, for a reader elsewhere');
});

test('a model call holds its share of what is free before it starts', (t) => {
  spec([]).when(hold('h1')).then(t, [held('h1', 8)]);
});

test('holding again for the same reply holds nothing more', (t) => {
  spec([held('h1', 8)]).when(hold('h1')).then(t, []);
});

test('the last hold takes only what is left; then nothing is free, and the refusal says the rest is held, not spent', (t) => {
  const full = [charged('c0', 95_000, null)];
  spec(full).when(hold('h1')).then(t, [held('h1', 5)]);
  spec([...full, held('h1', 5)]).when(hold('h2')).thenThrows(t, 'budget_busy', '额度正被进行中的请求占用，请稍后再试');
  spec([charged('c0', 100_000, null)]).when(hold('h2')).thenThrows(t, 'budget_exhausted', BUDGET_EXHAUSTED);
});

test('a hold is sized by what the call can use, so small calls share the last coins', (t) => {
  const lastTwo = [charged('c0', 98_000, null)];
  spec(lastTwo).when(hold('h1', T0, '2026-03-01', 300)).then(t, [held('h1', 0.3)]);
  spec([...lastTwo, held('h1', 0.3)]).when(hold('h2', T0, '2026-03-01', 300)).then(t, [held('h2', 0.3)]);
});

test('charges use up their reply’s hold first, so free budget is not counted twice', (t) => {
  const state = fold([held('h1', 8), charged('c1', 3000, 'm-h1')]);
  t.is(state.holds.h1?.charged, 3);
  t.is(state.usedToday, 3);
  // 100 − 3 used − (8 − 3) still held = 92 free: a new hold of 8 fits.
  spec([held('h1', 8), charged('c1', 3000, 'm-h1')]).when(hold('h2')).then(t, [held('h2', 8)]);
});

test('a charge is recorded once, however often its event is replayed', (t) => {
  spec([]).when(charge('c1', 1500, 'm1')).then(t, [charged('c1', 1500, 'm1')]);
  spec([charged('c1', 1500, 'm1')]).when(charge('c1', 1500, 'm1')).then(t, []);
});

test('a completed reply releases what its calls still held', (t) => {
  spec([held('h1', 8), charged('c1', 3000, 'm-h1')])
    .when({ type: 'ReleaseHolds', data: { ...user, messageId: 'm-h1' }, metadata: at(T0) })
    .then(t, [{ type: 'BudgetHoldsReleased', data: { userId: 'u1', day: '2026-03-01', at: '2026-03-01T02:00:00.000Z', messageId: 'm-h1', holdIds: ['h1'] } }]);
  spec([held('h1', 8)]).when({ type: 'ReleaseHolds', data: { ...user, messageId: 'other' }, metadata: at(T0) }).then(t, []);
});

test('an expired hold stops counting, so a lost worker cannot freeze a budget', (t) => {
  const full = [charged('c0', 92_000, null), held('h1', 8)];
  spec(full).when(hold('h2')).thenThrows(t, 'budget_busy');
  spec(full).when(hold('h2', '2026-03-01T02:31:00Z')).then(t, [held('h2', 8, '2026-03-01T02:31:00.000Z')]);
});

test('a new day closes the last one: usage beyond the limit is drawn from the extra budget', (t) => {
  const yesterday = [
    { type: 'ExtraBudgetAdded', data: { userId: 'u1', day: '2026-03-01', at: '2026-03-01T01:00:00.000Z', amount: 50, by: 'admin' } } as BudgetEvent,
    charged('c1', 130_000, null),
  ];
  t.like(tokenInfo(fold(yesterday), 'u1', new Date(T0), settings), { today_usage: 130, extra_budget: 50, total_available: 20 });
  const closed: BudgetEvent = {
    type: 'BudgetDayClosed',
    data: { userId: 'u1', day: '2026-03-02', at: '2026-03-02T02:00:00.000Z', closedDay: '2026-03-01', usedCoins: 130, limitCoins: 100, drawnFromExtra: 30, extraBudget: 20, refresh: false },
  };
  spec(yesterday).when(hold('h1', '2026-03-02T02:00:00Z', '2026-03-02')).then(t, [closed, held('h1', 8, '2026-03-02T02:00:00.000Z', '2026-03-02')]);
  t.like(tokenInfo(fold(yesterday), 'u1', new Date('2026-03-02T02:00:00Z'), settings), { today_usage: 0, extra_budget: 20, total_available: 120, all_usage: 130 });
});

test('usage consumed before midnight but charged after it counts only towards all-time usage', (t) => {
  const state = fold([charged('c1', 1000, null, '2026-03-02', '2026-03-02T00:00:00.000Z'), charged('c2', 2000, null, '2026-03-01')]);
  t.is(state.usedToday, 1);
  t.is(state.allUsage, 3);
});

test('an admin’s refresh starts today’s usage again', (t) => {
  spec([charged('c1', 100_000, null)])
    .when({ type: 'RefreshQuota', data: { ...user, by: 'admin' }, metadata: at(T0) })
    .then(t, [
      {
        type: 'BudgetDayClosed',
        data: { userId: 'u1', day: '2026-03-01', at: '2026-03-01T02:00:00.000Z', closedDay: '2026-03-01', usedCoins: 100, limitCoins: 100, drawnFromExtra: 0, extraBudget: 0, refresh: true },
      },
    ]);
  const refreshed = fold([
    charged('c1', 100_000, null),
    { type: 'BudgetDayClosed', data: { userId: 'u1', day: '2026-03-01', at: '2026-03-01T03:00:00.000Z', closedDay: '2026-03-01', usedCoins: 100, limitCoins: 100, drawnFromExtra: 0, extraBudget: 0, refresh: true } },
  ]);
  t.like(tokenInfo(refreshed, 'u1', new Date('2026-03-01T04:00:00Z'), settings), { today_usage: 0, total_available: 100, all_usage: 100, last_refresh_date: '2026-03-01T03:00:00.000Z' });
});

test('a level sets its daily limit; raising the limit afterwards is kept', (t) => {
  const vip: BudgetEvent = {
    type: 'MembershipLevelSet',
    data: { userId: 'u1', day: '2026-03-01', at: '2026-03-01T02:00:00.000Z', level: 'vip', membershipExpiresAt: '2026-04-01T00:00:00.000Z', tokenLevelLimit: 1000, by: 'admin' },
  };
  spec([]).when({ type: 'SetLevel', data: { ...user, level: 'vip', membershipExpiresAt: '2026-04-01T00:00:00.000Z', dailyLimit: 'level_default', by: 'admin' }, metadata: at(T0) }).then(t, [vip]);
  spec([vip])
    .when({ type: 'SetTokenLimit', data: { ...user, tokenLevelLimit: 1500, by: 'admin' }, metadata: at(T0) })
    .then(t, [{ type: 'TokenLimitSet', data: { userId: 'u1', day: '2026-03-01', at: '2026-03-01T02:00:00.000Z', tokenLevelLimit: 1500, by: 'admin' } }]);
  spec([]).when({ type: 'SetLevel', data: { ...user, level: 'premium', membershipExpiresAt: '2026-02-01T00:00:00.000Z', dailyLimit: 'level_default', by: 'admin' }, metadata: at(T0) }).thenThrows(t, 'invalid');
});

test('a level change keeps a hand-set daily limit when the admin says so, and the event records the limit that results', (t) => {
  const custom: BudgetEvent = { type: 'TokenLimitSet', data: { userId: 'u1', day: '2026-03-01', at: '2026-03-01T01:00:00.000Z', tokenLevelLimit: 250, by: 'admin' } };
  const setVip = (dailyLimit: 'keep' | 'level_default'): BudgetCommand => ({
    type: 'SetLevel',
    data: { ...user, level: 'vip', membershipExpiresAt: null, dailyLimit, by: 'admin' },
    metadata: at(T0),
  });
  const levelSet = (tokenLevelLimit: number): BudgetEvent => ({
    type: 'MembershipLevelSet',
    data: { userId: 'u1', day: '2026-03-01', at: '2026-03-01T02:00:00.000Z', level: 'vip', membershipExpiresAt: null, tokenLevelLimit, by: 'admin' },
  });
  spec([custom]).when(setVip('keep')).then(t, [levelSet(250)]);
  spec([custom]).when(setVip('level_default')).then(t, [levelSet(1000)]);
  t.like(tokenInfo(fold([custom, levelSet(250)]), 'u1', new Date(T0), settings), { user_level: 'vip', token_level_limit: 250 });
});

test('an expired membership falls back to basic, when read and at the next decision', (t) => {
  const vip: BudgetEvent = {
    type: 'MembershipLevelSet',
    data: { userId: 'u1', day: '2026-03-01', at: '2026-03-01T02:00:00.000Z', level: 'vip', membershipExpiresAt: '2026-03-01T03:00:00.000Z', tokenLevelLimit: 1000, by: 'admin' },
  };
  t.like(tokenInfo(fold([vip]), 'u1', new Date('2026-03-01T02:30:00Z'), settings), { user_level: 'vip', token_level_limit: 1000 });
  t.like(tokenInfo(fold([vip]), 'u1', new Date('2026-03-01T03:00:00Z'), settings), { user_level: 'basic', token_level_limit: 100, membership_expires_at: null });
  spec([vip])
    .when({ type: 'AddExtraBudget', data: { ...user, amount: 10, by: 'admin' }, metadata: at('2026-03-01T04:00:00Z') })
    .then(t, [
      { type: 'MembershipExpired', data: { userId: 'u1', day: '2026-03-01', at: '2026-03-01T04:00:00.000Z', previousLevel: 'vip', tokenLevelLimit: 100 } },
      { type: 'ExtraBudgetAdded', data: { userId: 'u1', day: '2026-03-01', at: '2026-03-01T04:00:00.000Z', amount: 10, by: 'admin' } },
    ]);
});

test('extra budget must be positive', (t) => {
  spec([]).when({ type: 'AddExtraBudget', data: { ...user, amount: 0, by: 'admin' }, metadata: at(T0) }).thenThrows(t, 'invalid');
});

test('local midnight follows the time zone, daylight saving included', (t) => {
  t.is(startOfDay('2026-03-01', 'UTC').toISOString(), '2026-03-01T00:00:00.000Z');
  t.is(startOfDay('2026-07-01', 'Europe/Berlin').toISOString(), '2026-06-30T22:00:00.000Z');
  t.is(startOfDay('2026-03-29', 'Europe/Berlin').toISOString(), '2026-03-28T23:00:00.000Z');
  t.is(startOfDay('2026-03-30', 'Europe/Berlin').toISOString(), '2026-03-29T22:00:00.000Z');
});
