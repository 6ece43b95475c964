import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import { budgetStream, evolve, initialState, type BudgetEvent } from './budget.ts';
import { BudgetGuard } from './guard.ts';

/** Concurrency against the real embedded store: every decision goes through exact expected revisions. */
function setup(t: { teardown(fn: () => void): void }, settings: { tokensPerCoin?: number; holdTokens?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'budget-'));
  const events = new SqliteEventStore(join(dir, 'events.sqlite3'));
  t.teardown(() => {
    void events.close().then(() => rmSync(dir, { recursive: true, force: true }));
  });
  const now = new Date('2026-03-01T02:00:00Z');
  const guard = new BudgetGuard(
    new CommandHandler(events),
    { timeZone: 'Asia/Shanghai', tokensPerCoin: settings.tokensPerCoin ?? 1000, holdTokens: settings.holdTokens ?? 10_000, holdTtlSeconds: 1800 },
    () => now,
  );
  const stream = async () => (await events.readStream(budgetStream('u1'))).map((event) => ({ type: event.type, data: event.data }) as BudgetEvent);
  return { guard, stream };
}

test('fifty concurrent calls against room for ten: ten hold, forty are refused as busy (not spent), nothing is overspent', async (t) => {
  const { guard, stream } = setup(t);
  const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => guard.hold('u1', { sessionId: 's1', messageId: `m${i}` })));
  t.is(outcomes.filter((outcome) => outcome === 'held').length, 10);
  const held = (await stream()).filter((event) => event.type === 'BudgetHeld');
  t.is(held.length, 10);
  t.is(held.reduce((sum, event) => sum + (event.type === 'BudgetHeld' ? event.data.coins : 0), 0), 100, 'exactly the daily limit, not a coin more');
  t.is(await guard.remainingTokens('u1'), 0);
  t.deepEqual(new Set(outcomes.filter((outcome) => outcome !== 'held')), new Set(['busy']));
  await t.throwsAsync(guard.ensureAvailable('u1'), { message: '额度正被进行中的请求占用，请稍后再试' });
});

test('concurrent charges are all counted, and a replayed charge once', async (t) => {
  const { guard, stream } = setup(t);
  const charge = (i: number) =>
    guard.run('u1', { type: 'ChargeTokens', data: { userId: 'u1', today: '2026-03-01', chargeId: `c${i}`, sessionId: 's1', messageId: `m${i}`, tokens: 700, tokensPerCoin: 1000 } }, { commandId: `charge:c${i}` });
  await Promise.all(Array.from({ length: 40 }, (_, i) => charge(i)));
  await Promise.all(Array.from({ length: 40 }, (_, i) => charge(i)));
  const state = (await stream()).reduce(evolve, initialState());
  t.is(state.usedToday, 28);
  t.is(state.recentCharges.length, 40);
  t.is(await guard.remainingTokens('u1'), 72_000);
});

test('holds and charges racing never let the held and the used exceed the budget', async (t) => {
  const { guard, stream } = setup(t, { holdTokens: 20_000 });
  const calls = Array.from({ length: 30 }, async (_, i) => {
    if ((await guard.hold('u1', { sessionId: 's1', messageId: `m${i}` })) !== 'held') return false;
    await guard.run('u1', { type: 'ChargeTokens', data: { userId: 'u1', today: '2026-03-01', chargeId: `c${i}`, sessionId: 's1', messageId: `m${i}`, tokens: 15_000, tokensPerCoin: 1000 } });
    await guard.run('u1', { type: 'ReleaseHolds', data: { userId: 'u1', today: '2026-03-01', messageId: `m${i}` } });
    return true;
  });
  const ran = (await Promise.all(calls)).filter(Boolean).length;
  const state = (await stream()).reduce(evolve, initialState());
  // Every call that ran was covered by its hold when it started; each used 15 of its 20.
  t.true(ran >= 5);
  t.is(state.usedToday, ran * 15);
  t.true(state.usedToday <= 100);
  t.deepEqual(state.holds, {});
});

test('a reply may spend what it holds itself, and no more than is free besides', async (t) => {
  const { guard } = setup(t, { holdTokens: 60_000 });
  t.is(await guard.hold('u1', { sessionId: 's1', messageId: 'm1' }), 'held');
  t.is(await guard.remainingTokens('u1'), 40_000, 'others see the hold taken');
  t.is(await guard.remainingTokens('u1', 'm1'), 100_000, 'the holder does not count its own hold against itself');
  t.is(await guard.hold('u1', { sessionId: 's1', messageId: 'm2' }), 'held');
  t.is(await guard.remainingTokens('u1', 'm1'), 60_000, 'another reply’s hold still counts');
});
