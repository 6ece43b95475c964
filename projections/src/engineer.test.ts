import test from 'ava';
import type { EngineerEvent } from '@scriptorium/domain/engineer/session';
import type { EngineerNode } from '@scriptorium/domain/protocol/engineer';
import { ENGINEER_COMMANDS, ENGINEER_NODES, ENGINEER_SESSIONS, engineerProjection } from './engineer.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<EngineerEvent>(engineerProjection);
const T1 = '2026-11-20T09:00:00.000Z';
const T2 = '2026-11-20T09:05:00.000Z';
const base = { sessionId: 's1', ownerId: 'u1', at: T1 };
const created: EngineerEvent = { type: 'EngineerSessionCreated', data: { ...base, title: '修复登录', taskDescription: '401', source: 'cli' } };
const node = (id: string, timestamp: string, extra: Partial<EngineerNode> = {}): EngineerNode =>
  ({ id, parent_id: null, status: 'completed', timestamp, node_type: 'message', payload: { role: 'user', text: id }, ...extra }) as EngineerNode;
const appended: EngineerEvent = {
  type: 'EngineerNodesAppended',
  data: { ...base, at: T2, nodes: [node('a', T1, { tokens: 10 }), node('b', '2026-11-20T17:05:00+08:00', { node_type: 'thought', payload: { text: 'hm' }, status: 'failed', tokens: 5 })] },
};

test('a session is listed with its status; nodes count by type and status, tokens add up, and the working time spans the nodes', async (t) => {
  await spec.given(created, appended, { type: 'EngineerStatusChanged', data: { ...base, at: T2, status: 'completed' } }).thenDoc(t, ENGINEER_SESSIONS, 's1', {
    owner_id: 'u1',
    title: '修复登录',
    status: 'completed',
    node_count: 2,
    tokens: 15,
    by_type: { message: 1, thought: 1 },
    by_status: { completed: 1, failed: 1 },
    first_node_at: T1,
    last_node_at: '2026-11-20T09:05:00.000Z',
    updated_at: T2,
  });
});

test('a batch applied again after a crash counts nothing twice', async (t) => {
  await spec.given(created).when(appended).replayed().thenDoc(t, ENGINEER_SESSIONS, 's1', { node_count: 2, tokens: 15 });
});

test('nodes sort by their UTC time then id, whatever offset they were sent with', async (t) => {
  await spec.given(created, appended).then(t, ENGINEER_NODES, [{ id: 'b', sort_key: '2026-11-20T09:05:00.000Z|b' }, { id: 'a', sort_key: `${T1}|a` }], { sort: { sort_key: -1 } });
});

test('a command shows who it was handed to and its result', async (t) => {
  await spec
    .given(
      created,
      { type: 'EngineerCommandIssued', data: { ...base, commandId: 'c1', seq: 1, commandType: 'run', content: 'ls', clientId: null } },
      { type: 'EngineerCommandDelivered', data: { ...base, commandId: 'c1', clientId: 'cli-a' } },
      { type: 'EngineerCommandResultRecorded', data: { ...base, at: T2, commandId: 'c1', status: 'failed', result: '', errorMessage: 'exit 1' } },
    )
    .then(t, ENGINEER_COMMANDS, [{ id: 'c1', seq: 1, command_type: 'run', delivered_to: ['cli-a'], result: { status: 'failed', result: '', error_message: 'exit 1', recorded_at: T2 } }]);
});

test('an updated node replaces its old version: counts move from its old status, tokens by the difference, the working time widens; applied again it counts once', async (t) => {
  const updated: EngineerEvent = {
    type: 'EngineerNodesUpdated',
    data: { ...base, at: '2026-11-20T09:10:00.000Z', nodes: [node('a', '2026-11-20T09:10:00.000Z', { tokens: 12, status: 'failed', payload: { role: 'user', text: 'a2' }, revision: 2 })] },
  };
  const session = { node_count: 2, tokens: 17, by_status: { completed: 0, failed: 2 }, first_node_at: T1, last_node_at: '2026-11-20T09:10:00.000Z' };
  await spec.given(created, appended, updated).thenDoc(t, ENGINEER_SESSIONS, 's1', session);
  await spec.given(created, appended).when(updated).replayed().thenDoc(t, ENGINEER_SESSIONS, 's1', session);
  await spec.given(created, appended, updated).thenDoc(t, ENGINEER_NODES, 's1:a', { status: 'failed', revision: 2, payload: { role: 'user', text: 'a2' }, sort_key: '2026-11-20T09:10:00.000Z|a' });
});
