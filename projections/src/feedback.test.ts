import test from 'ava';
import type { FeedbackEvent } from '@scriptorium/domain/feedback/feedback';
import { FEEDBACK, feedbackProjection } from './feedback.ts';
import { T1, T2, T3 } from './fixtures.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<FeedbackEvent>(feedbackProjection);
const submitted = (feedbackId: string, feedbackType: FeedbackEvent['data']['feedbackType'], at: string): FeedbackEvent => ({
  type: 'FeedbackSubmitted',
  data: { feedbackId, userId: 'u1', username: 'ada', email: 'ada@example.org', feedbackType, text: `反馈 ${feedbackId}`, at },
});

test('feedback is listed as submitted', async (t) => {
  await spec.given(submitted('f1', 'bug', T1)).thenDoc(t, FEEDBACK, 'f1', { user_id: 'u1', username: 'ada', email: 'ada@example.org', feedback_type: 'bug', feedback_text: '反馈 f1', created_at: T1 });
});

test('the admin console lists the newest first, by type', async (t) => {
  await spec
    .given(submitted('f1', 'bug', T1), submitted('f2', 'bug', T3), submitted('f3', 'feature', T2))
    .then(t, FEEDBACK, [{ _id: 'f2' }, { _id: 'f1' }], { filter: { feedback_type: 'bug' }, sort: { created_at: -1 } });
});

test('the same feedback recorded again is listed once', async (t) => {
  await spec.given(submitted('f1', 'bug', T1)).replayed().then(t, FEEDBACK, [{ _id: 'f1' }]);
});
