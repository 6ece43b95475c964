import test from 'ava';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import { feedbackMachine, SUCCESS_BANNER_MS, type FeedbackKind } from './feedback.ts';

function start(send: () => Promise<unknown> = async () => ({})) {
  const sent: Array<{ feedback_type: FeedbackKind; feedback_text: string }> = [];
  const clock = new SimulatedClock();
  const machine = feedbackMachine.provide({
    actors: {
      sendFeedback: fromPromise<unknown, { feedback_type: FeedbackKind; feedback_text: string }>(({ input }) => {
        sent.push(input);
        return send();
      }),
    },
    actions: { logFailure: () => undefined },
  });
  return { actor: createActor(machine, { clock }).start(), clock, sent };
}

test('choosing a type opens the form; switching type resets the text; cancel closes it', (t) => {
  const { actor } = start();
  t.true(actor.getSnapshot().matches('idle'));
  actor.send({ type: 'feedback.choose', feedbackType: 'bug' });
  t.true(actor.getSnapshot().matches('editing'));
  actor.send({ type: 'feedback.type', value: '按钮没反应' });
  actor.send({ type: 'feedback.choose', feedbackType: 'bug' });
  t.is(actor.getSnapshot().context.text, '按钮没反应', 'the same type keeps the text');
  actor.send({ type: 'feedback.choose', feedbackType: 'feature' });
  t.is(actor.getSnapshot().context.feedbackType, 'feature');
  t.is(actor.getSnapshot().context.text, '');
  actor.send({ type: 'feedback.cancel' });
  t.true(actor.getSnapshot().matches('idle'));
  t.is(actor.getSnapshot().context.feedbackType, null);
});

test('blank text is not sent', (t) => {
  const { actor, sent } = start();
  actor.send({ type: 'feedback.choose', feedbackType: 'general' });
  actor.send({ type: 'feedback.type', value: '  \n ' });
  actor.send({ type: 'feedback.send' });
  t.true(actor.getSnapshot().matches('editing'));
  t.is(sent.length, 0);
});

test('a sent feedback shows the success banner for five seconds', async (t) => {
  const { actor, clock, sent } = start();
  actor.send({ type: 'feedback.choose', feedbackType: 'feature' });
  actor.send({ type: 'feedback.type', value: ' 希望支持导出 PDF ' });
  actor.send({ type: 'feedback.send' });
  t.true(actor.getSnapshot().matches('sending'));
  await waitFor(actor, (s) => s.matches('sent'));
  t.deepEqual(sent, [{ feedback_type: 'feature', feedback_text: '希望支持导出 PDF' }]);
  t.is(actor.getSnapshot().context.feedbackType, null);
  clock.increment(SUCCESS_BANNER_MS - 1);
  t.true(actor.getSnapshot().matches('sent'));
  clock.increment(1);
  t.true(actor.getSnapshot().matches('idle'));
});

test('a failed send returns to the form with the text kept', async (t) => {
  const { actor } = start(() => Promise.reject(new Error('down')));
  actor.send({ type: 'feedback.choose', feedbackType: 'bug' });
  actor.send({ type: 'feedback.type', value: '崩溃了' });
  actor.send({ type: 'feedback.send' });
  await waitFor(actor, (s) => s.matches('editing'));
  t.is(actor.getSnapshot().context.text, '崩溃了');
});
