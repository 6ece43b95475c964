import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { feedbackDecider, type SubmitFeedback } from './decide.ts';

const spec = deciderSpec(feedbackDecider);
const submit = (text: string): SubmitFeedback => ({
  type: 'SubmitFeedback',
  data: { feedbackId: 'f1', userId: 'u1', username: 'lin', email: 'lin@example.com', feedbackType: 'bug', text },
  metadata: at('2026-03-01T02:00:00Z'),
});

test('feedback is stored trimmed, once', (t) => {
  const submitted = { type: 'FeedbackSubmitted' as const, data: { ...submit('').data, text: '按钮没反应', at: '2026-03-01T02:00:00.000Z' } };
  spec([]).when(submit('  按钮没反应 \n')).then(t, [submitted]);
  spec([submitted]).when(submit('按钮没反应')).then(t, []);
});

test('blank or oversized feedback is refused', (t) => {
  spec([]).when(submit(' \n\t ')).thenThrows(t, 'invalid', '反馈内容不能为空');
  spec([]).when(submit('字'.repeat(5001))).thenThrows(t, 'invalid');
});
