import test from 'ava';
import { MemoryAttemptLog } from '@scriptorium/infra/attempts/memory';
import { LoginThrottle } from './loginThrottle.ts';

const clockAt = (start: number) => {
  let now = start;
  return { clock: () => new Date(now), advance: (seconds: number) => (now += seconds * 1000) };
};

test('five failures of one name from one address lock that pair for the rest of the window', async (t) => {
  const time = clockAt(Date.parse('2026-01-01T00:00:00Z'));
  const throttle = new LoginThrottle(new MemoryAttemptLog(), { maxFailures: 5, windowSeconds: 900, maxDelaySeconds: 30 }, time.clock);
  for (let i = 0; i < 5; i++) {
    t.is(await throttle.retryAfter('lin', '10.0.0.1'), 0);
    await throttle.fail('lin', '10.0.0.1');
  }
  t.is(await throttle.retryAfter('LIN', '10.0.0.1'), 900);
  t.is(await throttle.retryAfter('lin', '10.0.0.2'), 0, 'another address is not locked out by the pair');
  time.advance(600);
  t.is(await throttle.retryAfter('lin', '10.0.0.1'), 300);
  time.advance(300);
  t.is(await throttle.retryAfter('lin', '10.0.0.1'), 0, 'the window slid past the failures');
});

test('a name guessed from many addresses is slowed, never locked; an address trying many names is limited', async (t) => {
  const time = clockAt(Date.parse('2026-01-01T00:00:00Z'));
  const throttle = new LoginThrottle(new MemoryAttemptLog(), { maxFailures: 2, windowSeconds: 60, maxDelaySeconds: 30 }, time.clock);
  const delays = [];
  for (let i = 0; i < 8; i++) {
    await throttle.fail('target', `10.0.1.${i}`);
    delays.push(await throttle.delayMs('TARGET'));
  }
  t.deepEqual(delays, [0, 0, 1000, 2000, 4000, 8000, 16000, 30000], 'doubling past the limit, up to the cap');
  t.is(await throttle.retryAfter('target', '10.0.2.1'), 0, 'a fresh address may still try the account');
  for (let i = 0; i < 10; i++) await throttle.fail(`name${i}`, '10.0.3.1');
  t.true((await throttle.retryAfter('fresh-name', '10.0.3.1')) > 0);
  time.advance(60);
  t.is(await throttle.delayMs('target'), 0, 'the delay slides out with the window');
});

test('a successful sign-in clears the pair', async (t) => {
  const throttle = new LoginThrottle(new MemoryAttemptLog(), { maxFailures: 2, windowSeconds: 60, maxDelaySeconds: 30 }, clockAt(0).clock);
  await throttle.fail('lin', 'ip');
  await throttle.succeed('lin', 'ip');
  await throttle.fail('lin', 'ip');
  t.is(await throttle.retryAfter('lin', 'ip'), 0);
});

test('a trusted device skips the account delay; its own failures count against it, and past the limit it is a fresh client again', async (t) => {
  const time = clockAt(Date.parse('2026-01-01T00:00:00Z'));
  const throttle = new LoginThrottle(new MemoryAttemptLog(), { maxFailures: 2, windowSeconds: 60, maxDelaySeconds: 30 }, time.clock);
  for (let i = 0; i < 6; i++) await throttle.fail('owner', `10.0.2.${i}`);
  t.true((await throttle.delayMs('owner')) > 0, 'guesses from anywhere delay a fresh client');
  t.true(await throttle.trusts('device-a'));
  t.is(await throttle.delayMs('owner', 'device-a'), 0);
  t.false(await throttle.trusts(null));

  await throttle.fail('owner', '10.0.3.1', 'device-a');
  t.true(await throttle.trusts('device-a'), 'one typo on the device');
  await throttle.fail('owner', '10.0.3.1', 'device-a');
  t.false(await throttle.trusts('device-a'), 'past the limit the device is not spared');
  t.true(await throttle.trusts('device-b'), 'other devices are not affected');
  await throttle.succeed('owner', '10.0.3.1', 'device-a');
  t.true(await throttle.trusts('device-a'), 'a good sign-in restores it');
});
