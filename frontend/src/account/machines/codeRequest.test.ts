import test from 'ava';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import { codeRequestMachine, RESEND_SECONDS } from './codeRequest.ts';

function start(send: () => Promise<unknown> = async () => ({})) {
  const emails: string[] = [];
  const clock = new SimulatedClock();
  const machine = codeRequestMachine.provide({
    actors: {
      sendCode: fromPromise<unknown, { email: string }>(({ input }) => {
        emails.push(input.email);
        return send();
      }),
    },
  });
  return { actor: createActor(machine, { clock }).start(), clock, emails };
}

test('no e-mail, no request', (t) => {
  const { actor, emails } = start();
  actor.send({ type: 'code.send', email: '  ' });
  t.true(actor.getSnapshot().matches('ready'));
  t.is(emails.length, 0);
});

test('a sent code blocks the button for 120 seconds', async (t) => {
  const { actor, clock, emails } = start();
  actor.send({ type: 'code.send', email: ' new@example.com ' });
  await waitFor(actor, (s) => s.matches('coolingDown'));
  t.deepEqual(emails, ['new@example.com']);
  t.is(actor.getSnapshot().context.secondsLeft, RESEND_SECONDS);
  actor.send({ type: 'code.send', email: 'new@example.com' });
  t.is(emails.length, 1);
  for (let second = 0; second < RESEND_SECONDS - 1; second += 1) clock.increment(1000);
  t.true(actor.getSnapshot().matches('coolingDown'));
  clock.increment(1000);
  t.true(actor.getSnapshot().matches('ready'));
});

test('a failed request keeps the server message and lets the user retry', async (t) => {
  const { actor } = start(() => Promise.reject(Object.assign(new Error('x'), { status: 429, detail: '请 60 秒后再试' })));
  actor.send({ type: 'code.send', email: 'new@example.com' });
  await waitFor(actor, (s) => s.matches('ready') && s.context.message !== null);
  t.deepEqual(actor.getSnapshot().context.message, { key: 'sendFailed', detail: '请 60 秒后再试' });
});

test('a form opened again within the countdown keeps the code already mailed', async (t) => {
  const { actor } = start(() => Promise.reject(Object.assign(new Error('x'), { status: 429, code: 'auth.resend_too_soon', params: { seconds: 40 } })));
  actor.send({ type: 'code.send', email: 'new@example.com' });
  await waitFor(actor, (s) => s.matches('coolingDown'));
  t.deepEqual(actor.getSnapshot().context, { secondsLeft: 40, message: { key: 'alreadySent' } });
});
