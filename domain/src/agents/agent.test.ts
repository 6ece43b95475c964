import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import type { AgentEvent } from './agent.ts';
import { AGENT_NOT_FOUND, agentDecider } from './decide.ts';

const spec = deciderSpec(agentDecider);
const T1 = '2026-07-01T09:00:00.000Z';
const TOOLS = ['calculator', 'current_time'];
const profile = { name: ' 财务助手 ', description: '算账', instructions: '回答时给出计算过程。', tools: ['calculator', 'calculator'] };
const created: AgentEvent = { type: 'AgentCreated', data: { agentId: 'a1', ownerId: 'u1', name: '财务助手', description: '算账', instructions: '回答时给出计算过程。', tools: ['calculator'], at: T1 } };

test('an agent is created with its profile cleaned, once', (t) => {
  spec([]).when({ type: 'CreateAgent', data: { agentId: 'a1', actorId: 'u1', ...profile, knownTools: TOOLS }, metadata: at(T1) }).then(t, [created]);
  spec([created]).when({ type: 'CreateAgent', data: { agentId: 'a1', actorId: 'u1', ...profile, knownTools: TOOLS }, metadata: at(T1) }).then(t, []);
});

test('unknown tools, blank names and blank instructions are refused', (t) => {
  spec([]).when({ type: 'CreateAgent', data: { agentId: 'a1', actorId: 'u1', ...profile, tools: ['teleport'], knownTools: TOOLS }, metadata: at(T1) }).thenThrows(t, 'invalid', '没有这些工具：teleport');
  spec([]).when({ type: 'CreateAgent', data: { agentId: 'a1', actorId: 'u1', ...profile, name: '  ', knownTools: TOOLS }, metadata: at(T1) }).thenThrows(t, 'invalid', '智能体名称不能为空');
  spec([]).when({ type: 'CreateAgent', data: { agentId: 'a1', actorId: 'u1', ...profile, instructions: '', knownTools: TOOLS }, metadata: at(T1) }).thenThrows(t, 'invalid', '请写下智能体的工作说明');
});

test('only its owner updates, tests or deletes it; an update that changes nothing records nothing', (t) => {
  spec([created]).when({ type: 'UpdateAgent', data: { agentId: 'a1', actorId: 'u2', name: 'x', knownTools: TOOLS }, metadata: at(T1) }).thenThrows(t, 'not_found', AGENT_NOT_FOUND);
  spec([created]).when({ type: 'UpdateAgent', data: { agentId: 'a1', actorId: 'u1', name: '财务助手', knownTools: TOOLS }, metadata: at(T1) }).then(t, []);
  spec([created])
    .when({ type: 'UpdateAgent', data: { agentId: 'a1', actorId: 'u1', tools: ['calculator', 'current_time'], knownTools: TOOLS }, metadata: at(T1) })
    .then(t, [{ type: 'AgentUpdated', data: { agentId: 'a1', ownerId: 'u1', name: '财务助手', description: '算账', instructions: '回答时给出计算过程。', tools: ['calculator', 'current_time'], at: T1 } }]);
  spec([created]).when({ type: 'DeleteAgent', data: { agentId: 'a1', actorId: 'u2' }, metadata: at(T1) }).thenThrows(t, 'not_found', AGENT_NOT_FOUND);
  spec([created]).when({ type: 'RecordToolTest', data: { agentId: 'a1', actorId: 'u2', tool: 'calculator', ok: true, summary: '', durationMs: 1 }, metadata: at(T1) }).thenThrows(t, 'not_found');
});
