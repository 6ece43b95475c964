import test from 'ava';
import { LoginThrottle } from './loginThrottle.ts';

const clockAt = (start: number) => {
  let now = start;
  return { clock: () => new Date(now), advance: (seconds: number) => (now += seconds * 1000) };
};

test('five failures of one name from one address lock that pair for the rest of the window', (t) => {
  const time = clockAt(Date.parse('2026-01-01T00:00:00Z'));
  const throttle = new LoginThrottle({ maxFailures: 5, windowSeconds: 900 }, time.clock);
  for (let i = 0; i < 5; i++) {
    t.is(throttle.retryAfter('lin', '10.0.0.1'), 0);
    throttle.fail('lin', '10.0.0.1');
  }
  t.is(throttle.retryAfter('LIN', '10.0.0.1'), 900);
  t.is(throttle.retryAfter('lin', '10.0.0.2'), 0, 'another address is not locked out by the pair');
  time.advance(600);
  t.is(throttle.retryAfter('lin', '10.0.0.1'), 300);
  time.advance(300);
  t.is(throttle.retryAfter('lin', '10.0.0.1'), 0, 'the window slid past the failures');
});

test('a name guessed from many addresses, and an address trying many names, are limited too', (t) => {
  const time = clockAt(Date.parse('2026-01-01T00:00:00Z'));
  const throttle = new LoginThrottle({ maxFailures: 2, windowSeconds: 60 }, time.clock);
  for (let i = 0; i < 8; i++) throttle.fail('target', `10.0.1.${i}`);
  t.true(throttle.retryAfter('target', '10.0.2.1') > 0);
  for (let i = 0; i < 10; i++) throttle.fail(`name${i}`, '10.0.3.1');
  t.true(throttle.retryAfter('fresh-name', '10.0.3.1') > 0);
});

test('a successful sign-in clears the pair', (t) => {
  const time = clockAt(0);
  const throttle = new LoginThrottle({ maxFailures: 2, windowSeconds: 60 }, time.clock);
  throttle.fail('lin', 'ip');
  throttle.succeed('lin', 'ip');
  throttle.fail('lin', 'ip');
  t.is(throttle.retryAfter('lin', 'ip'), 0);
});

test('the map forgets the oldest names first beyond its size', (t) => {
  const throttle = new LoginThrottle({ maxFailures: 1, windowSeconds: 60, maxKeys: 10 }, clockAt(0).clock);
  for (let i = 0; i < 20; i++) throttle.fail(`n${i}`, `ip${i}`);
  t.is(throttle.retryAfter('n0', 'ip0'), 0);
  t.true(throttle.retryAfter('n19', 'ip19') > 0);
});
