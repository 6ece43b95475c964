import test from 'ava';
import type { AgentEvent } from '@scriptorium/domain/agents/agent';
import { AGENT_TOOL_TESTS, AGENTS, agentsProjection } from './agents.ts';
import { T1, T2, T3 } from './fixtures.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<AgentEvent>(agentsProjection);
const profile = { name: '史料助手', description: '查史料', instructions: '只引用一手史料', tools: ['web_search'] };
const created = (agentId: string, at: string): AgentEvent => ({ type: 'AgentCreated', data: { agentId, ownerId: 'u1', ...profile, at } });
const tested = (ok: boolean, at: string): AgentEvent => ({ type: 'AgentToolTested', data: { agentId: 'a1', ownerId: 'u1', tool: 'web_search', ok, summary: ok ? '3 条结果' : '超时', durationMs: 1200, at } });

test('a new agent has its profile and no tests', async (t) => {
  await spec.given(created('a1', T1)).thenDoc(t, AGENTS, 'a1', { owner_id: 'u1', ...profile, tests: 0, failed_tests: 0, last_test_at: null, created_at: T1, updated_at: T1 });
});

test("an update replaces the profile; the owner's agents are listed most recently updated first", async (t) => {
  await spec
    .given(created('a1', T1), created('a2', T2), { type: 'AgentUpdated', data: { agentId: 'a1', ownerId: 'u1', ...profile, name: '新名', tools: [], at: T3 } })
    .then(t, AGENTS, [{ _id: 'a1', name: '新名', tools: [], updated_at: T3 }, { _id: 'a2' }], { filter: { owner_id: 'u1' }, sort: { updated_at: -1 } });
});

test('tool tests are counted on the agent and listed newest first', async (t) => {
  const runs = spec.given(created('a1', T1), tested(true, T2), tested(false, T3));
  await runs.thenDoc(t, AGENTS, 'a1', { tests: 2, failed_tests: 1, last_test_at: T3, updated_at: T1 });
  await runs.then(
    t,
    AGENT_TOOL_TESTS,
    [
      { _id: 'event-3', agent_id: 'a1', owner_id: 'u1', tool: 'web_search', ok: false, summary: '超时', duration_ms: 1200, at: T3 },
      { _id: 'event-2', ok: true, at: T2 },
    ],
    { filter: { agent_id: 'a1' }, sort: { at: -1 } },
  );
});

test('a deleted agent takes its tool tests with it', async (t) => {
  const deleted = spec.given(created('a1', T1), created('a2', T1), tested(true, T2), { type: 'AgentDeleted', data: { agentId: 'a1', ownerId: 'u1', at: T3 } });
  await deleted.then(t, AGENTS, [{ _id: 'a2' }]);
  await deleted.then(t, AGENT_TOOL_TESTS, []);
});

test('a tool test replayed after a crash (standalone Mongo) is counted once', async (t) => {
  await spec.given(created('a1', T1)).when(tested(true, T2)).replayed().thenDoc(t, AGENTS, 'a1', { tests: 1 });
});

test('a failed run keeps its reason in catalogue form beside the Chinese summary', async (t) => {
  const refusal = { code: 'tools.unknown_unit', params: { unit: 'furlong' } };
  await spec
    .given(created('a1', T1), { type: 'AgentToolTested', data: { agentId: 'a1', ownerId: 'u1', tool: 'unit_convert', ok: false, summary: '不认识的单位“furlong”', refusal, durationMs: 3, at: T2 } })
    .thenDoc(t, AGENT_TOOL_TESTS, 'event-2', { ok: false, summary: '不认识的单位“furlong”', refusal });
});
