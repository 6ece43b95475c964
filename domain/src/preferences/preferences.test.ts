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
