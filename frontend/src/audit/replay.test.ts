import test from 'ava';
import type { WireContent } from '@scriptorium/domain/protocol/content';
import type { PlanStep } from '@scriptorium/domain/protocol/research';
import { emptyConversation } from '../research/conversation.ts';
import { currentPlan } from './replay.ts';

const at = '2026-03-01T08:00:00.000Z';
const envelope = { agent: 'deep_cognition' as const, message_id: 'r1', timestamp: at, updated_at: at };
const steps = (descriptions: string[], current = -1): PlanStep[] =>
  descriptions.map((description, index) => ({ step: index + 1, description, status: index < current ? 'completed' : index === current ? 'in_progress' : 'not_started' }));
const replay = (contents: WireContent[]) => ({ ...emptyConversation(), messages: [{ id: 'r1', role: 'assistant' as const, agent: 'deep_cognition', replyTo: 'm1', status: 'streaming' as const, createdAt: at, contents }] });

test('the replayed plan is the edited one once the user edited it, then moves with its steps', (t) => {
  const proposed: WireContent = { ...envelope, content_type: 'plan', research_plan: steps(['检索', '写作']), message: 'Plan Generated' };
  const edited: WireContent = { ...envelope, content_type: 'plan_review', status: 'edited', research_plan: steps(['写作', '核对']), queries: [['写作'], ['核对']] };
  const started: WireContent = { ...envelope, content_type: 'plan_review', status: 'started', by: 'user' };
  const marked: WireContent = { ...envelope, content_type: 'mark_in_progress_plan_step', index: 0, research_plan: steps(['写作', '核对'], 0) };
  t.deepEqual(currentPlan(replay([proposed])), steps(['检索', '写作']));
  t.deepEqual(currentPlan(replay([proposed, edited, started])), steps(['写作', '核对']));
  t.deepEqual(currentPlan(replay([proposed, edited, started, marked])), steps(['写作', '核对'], 0));
});
