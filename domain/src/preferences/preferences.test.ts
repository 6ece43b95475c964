import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { preferencesDecider } from './preferences.ts';

const spec = deciderSpec(preferencesDecider);
const meta = at('2026-03-01T00:00:00Z');

test('a user picks one of the available models, once', (t) => {
  const chosen = { type: 'ModelPreferenceSet' as const, data: { userId: 'u1', model: 'gpt-x', at: '2026-03-01T00:00:00.000Z' } };
  spec([]).when({ type: 'SetModelPreference', data: { userId: 'u1', model: 'gpt-x', available: ['gpt-x'] }, metadata: meta }).then(t, [chosen]);
  spec([chosen]).when({ type: 'SetModelPreference', data: { userId: 'u1', model: 'gpt-x', available: ['gpt-x'] }, metadata: meta }).then(t, []);
  spec([]).when({ type: 'SetModelPreference', data: { userId: 'u1', model: 'other', available: ['gpt-x'] }, metadata: meta }).thenThrows(t, 'invalid');
});

test('plans start on a countdown unless the user asks to review them first; setting it again records nothing', (t) => {
  const on = { type: 'PlanReviewPreferenceSet' as const, data: { userId: 'u1', reviewPlans: true, at: '2026-03-01T00:00:00.000Z' } };
  spec([]).when({ type: 'SetPlanReviewPreference', data: { userId: 'u1', reviewPlans: false }, metadata: meta }).then(t, []);
  spec([]).when({ type: 'SetPlanReviewPreference', data: { userId: 'u1', reviewPlans: true }, metadata: meta }).then(t, [on]);
  spec([on]).when({ type: 'SetPlanReviewPreference', data: { userId: 'u1', reviewPlans: true }, metadata: meta }).then(t, []);
});
