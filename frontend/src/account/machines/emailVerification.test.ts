import test from 'ava';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import { emailVerificationMachine, isCompleteCode, RESEND_SECONDS, sanitiseCode } from './emailVerification.ts';

interface Calls {
  sends: Array<{ email: string; resend: boolean }>;
  verifies: Array<{ email: string; code: string }>;
}

function start(options: { send?: () => Promise<unknown>; verify?: (code: string) => Promise<unknown> } = {}) {
  const calls: Calls = { sends: [], verifies: [] };
  const clock = new SimulatedClock();
  const machine = emailVerificationMachine.provide({
    actors: {
      sendCode: fromPromise<unknown, { email: string; resend: boolean }>(({ input }) => {
        calls.sends.push(input);
        return (options.send ?? (async () => ({})))();
      }),
      verifyCode: fromPromise<unknown, { email: string; code: string }>(({ input }) => {
        calls.verifies.push(input);
        return (options.verify ?? (async () => ({})))(input.code);
      }),
    },
  });
  const actor = createActor(machine, { clock, input: { email: 'reader@example.com' } }).start();
  return { actor, clock, calls };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test('codes keep digits only, at most six', (t) => {
  t.is(sanitiseCode('12a3 45-678'), '123456');
  t.is(sanitiseCode('٣'), '');
  t.true(isCompleteCode('123456'));
  t.false(isCompleteCode('12345'));
});

test('opening sends a code and starts the 120-second countdown; resend waits for it', async (t) => {
  const { actor, clock, calls } = start();
  t.true(actor.getSnapshot().matches({ delivery: 'requesting' }));
  await waitFor(actor, (s) => s.matches({ delivery: 'coolingDown' }));
  t.deepEqual(calls.sends, [{ email: 'reader@example.com', resend: false }]);
  t.is(actor.getSnapshot().context.secondsLeft, RESEND_SECONDS);
  t.deepEqual(actor.getSnapshot().context.message, { key: 'sent' });

  actor.send({ type: 'code.resend' });
  t.is(calls.sends.length, 1, 'resend is refused during the countdown');

  clock.increment(1000);
  t.is(actor.getSnapshot().context.secondsLeft, RESEND_SECONDS - 1);
  for (let second = 1; second < RESEND_SECONDS - 1; second += 1) clock.increment(1000);
  t.is(actor.getSnapshot().context.secondsLeft, 1);
  t.true(actor.getSnapshot().matches({ delivery: 'coolingDown' }));
  clock.increment(1000);
  t.true(actor.getSnapshot().matches({ delivery: 'ready' }));
  t.is(actor.getSnapshot().context.secondsLeft, 0);

  actor.send({ type: 'code.resend' });
  await waitFor(actor, (s) => s.matches({ delivery: 'coolingDown' }));
  t.deepEqual(calls.sends[1], { email: 'reader@example.com', resend: true });
  t.is(actor.getSnapshot().context.secondsLeft, RESEND_SECONDS);
});

test('a failed send shows the server message and allows a resend at once', async (t) => {
  const { actor } = start({ send: () => Promise.reject(Object.assign(new Error('x'), { status: 503, detail: '邮件发送失败，请稍后重试' })) });
  await waitFor(actor, (s) => s.matches({ delivery: 'ready' }));
  t.deepEqual(actor.getSnapshot().context.message, { key: 'sendFailed', detail: '邮件发送失败，请稍后重试' });
  const bare = start({ send: () => Promise.reject(new Error('offline')) });
  await waitFor(bare.actor, (s) => s.matches({ delivery: 'ready' }));
  t.deepEqual(bare.actor.getSnapshot().context.message, { key: 'sendFailed' });
});

test('reopened within the countdown, the modal keeps the code already mailed and resumes the countdown', async (t) => {
  const tooSoon = Object.assign(new Error('x'), { status: 429, code: 'auth.resend_too_soon', params: { seconds: 97 } });
  const { actor, clock, calls } = start({ send: () => Promise.reject(tooSoon) });
  await waitFor(actor, (s) => s.matches({ delivery: 'coolingDown' }));
  t.is(calls.sends.length, 1);
  t.deepEqual(actor.getSnapshot().context.message, { key: 'alreadySent' });
  t.is(actor.getSnapshot().context.secondsLeft, 97);
  for (let second = 0; second < 97; second += 1) clock.increment(1000);
  t.true(actor.getSnapshot().matches({ delivery: 'ready' }));
  const other = start({ send: () => Promise.reject(Object.assign(new Error('x'), { status: 429, code: 'auth.too_many_attempts', params: { minutes: 3 } })) });
  await waitFor(other.actor, (s) => s.matches({ delivery: 'ready' }));
  t.is(other.actor.getSnapshot().context.message?.key, 'sendFailed', 'only the resend countdown means a code stands');
});

test('verify goes only at exactly six digits; otherwise it asks for the code', async (t) => {
  const { actor, calls } = start();
  await waitFor(actor, (s) => s.matches({ delivery: 'coolingDown' }));
  actor.send({ type: 'code.change', value: '12345' });
  actor.send({ type: 'code.verify' });
  t.true(actor.getSnapshot().matches({ verification: 'entering' }));
  t.deepEqual(actor.getSnapshot().context.message, { key: 'enterCode' });
  t.is(calls.verifies.length, 0);

  actor.send({ type: 'code.change', value: '1234567' });
  t.is(actor.getSnapshot().context.code, '123456');
  actor.send({ type: 'code.verify' });
  t.true(actor.getSnapshot().matches({ verification: 'verifying' }));
  await waitFor(actor, (s) => s.matches({ verification: 'verified' }));
  t.deepEqual(calls.verifies, [{ email: 'reader@example.com', code: '123456' }]);
  t.deepEqual(actor.getSnapshot().context.message, { key: 'verified' });
});

test('a wrong code shows the server message; a failed call the retry-later text', async (t) => {
  let answer: unknown = Object.assign(new Error('x'), { status: 400, detail: '验证码错误' });
  const { actor } = start({ verify: () => Promise.reject(answer) });
  await waitFor(actor, (s) => s.matches({ delivery: 'coolingDown' }));
  actor.send({ type: 'code.change', value: '000000' });
  actor.send({ type: 'code.verify' });
  await settle();
  await waitFor(actor, (s) => s.matches({ verification: 'entering' }));
  t.deepEqual(actor.getSnapshot().context.message, { key: 'invalidCode', detail: '验证码错误' });

  answer = Object.assign(new Error('x'), { status: 400 });
  actor.send({ type: 'code.verify' });
  await settle();
  await waitFor(actor, (s) => s.matches({ verification: 'entering' }));
  t.deepEqual(actor.getSnapshot().context.message, { key: 'invalidCode' });

  answer = Object.assign(new Error('x'), { status: 0 });
  actor.send({ type: 'code.verify' });
  await settle();
  await waitFor(actor, (s) => s.matches({ verification: 'entering' }));
  t.deepEqual(actor.getSnapshot().context.message, { key: 'verifyFailed' });
});
