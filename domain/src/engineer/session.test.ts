import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import type { EngineerNode } from '../protocol/engineer.ts';
import { engineerDecider, type EngineerCommand } from './decide.ts';
import type { EngineerEvent } from './session.ts';

const spec = deciderSpec(engineerDecider);
const T1 = '2026-11-20T09:00:00.000Z';
const base = { sessionId: 's1', ownerId: 'u1', at: T1 };
const created: EngineerEvent = { type: 'EngineerSessionCreated', data: { ...base, title: '修复登录', taskDescription: '401', source: 'cli' } };
const node = (id: string, parent: string | null = null): EngineerNode => ({ id, parent_id: parent, status: 'completed', timestamp: T1, node_type: 'thought', payload: { text: id } });
const when = <C extends EngineerCommand>(type: C['type'], data: Omit<C['data'], 'sessionId'>) => ({ type, data: { sessionId: 's1', ...data }, metadata: at(T1) }) as EngineerCommand;
const issued = (commandId: string, seq: number, clientId: string | null = null): EngineerEvent => ({ type: 'EngineerCommandIssued', data: { ...base, commandId, seq, commandType: 'run', content: 'ls', clientId } });

test('a session starts running; creating it again is nothing, and another user cannot claim its id', (t) => {
  spec([]).when(when('CreateEngineerSession', { ownerId: 'u1', title: ' 修复登录 ', taskDescription: '401', source: 'cli' })).then(t, [created]);
  spec([created]).when(when('CreateEngineerSession', { ownerId: 'u1', title: '修复登录', taskDescription: '401', source: 'cli' })).then(t, []);
  spec([created]).when(when('CreateEngineerSession', { ownerId: 'u2', title: 'x', taskDescription: '', source: 'api' })).thenThrows(t, 'not_found');
  spec([]).when(when('CreateEngineerSession', { ownerId: 'u1', title: '  ', taskDescription: '', source: 'api' })).thenThrows(t, 'invalid');
});

test('nodes sent again are skipped; a parent must come first; status may travel with a batch', (t) => {
  const first: EngineerEvent = { type: 'EngineerNodesAppended', data: { ...base, nodes: [node('a'), node('b', 'a')] } };
  spec([created]).when(when('AppendEngineerNodes', { actorId: 'u1', nodes: [node('a'), node('b', 'a')] })).then(t, [first]);
  spec([created, first])
    .when(when('AppendEngineerNodes', { actorId: 'u1', nodes: [node('a'), node('c', 'b')], status: 'waiting_input' }))
    .then(t, [
      { type: 'EngineerNodesAppended', data: { ...base, nodes: [node('c', 'b')] } },
      { type: 'EngineerStatusChanged', data: { ...base, status: 'waiting_input' } },
    ]);
  spec([created, first]).when(when('AppendEngineerNodes', { actorId: 'u1', nodes: [node('a'), node('b', 'a')] })).then(t, []);
  spec([created]).when(when('AppendEngineerNodes', { actorId: 'u1', nodes: [node('x', 'ghost')] })).thenThrows(t, 'invalid', '父节点不存在：ghost');
  spec([created]).when(when('AppendEngineerNodes', { actorId: 'u2', nodes: [node('a')] })).thenThrows(t, 'not_found');
});

test('an ended session keeps its end and takes no more nodes or commands', (t) => {
  const ended: EngineerEvent = { type: 'EngineerStatusChanged', data: { ...base, status: 'completed' } };
  spec([created, ended]).when(when('ChangeEngineerStatus', { actorId: 'u1', status: 'completed' })).then(t, []);
  spec([created, ended]).when(when('ChangeEngineerStatus', { actorId: 'u1', status: 'stopped' })).thenThrows(t, 'conflict');
  spec([created, ended]).when(when('AppendEngineerNodes', { actorId: 'u1', nodes: [node('a')] })).thenThrows(t, 'conflict');
  spec([created, ended]).when(when('IssueEngineerCommand', { actorId: 'u1', commandId: 'c1', commandType: 'run', content: 'ls', clientId: null })).thenThrows(t, 'conflict');
});

test('commands are numbered; a message wakes a session waiting for input', (t) => {
  const waiting: EngineerEvent = { type: 'EngineerStatusChanged', data: { ...base, status: 'waiting_input' } };
  spec([created, issued('c1', 1)]).when(when('IssueEngineerCommand', { actorId: 'u1', commandId: 'c2', commandType: 'run', content: 'ls', clientId: null })).then(t, [issued('c2', 2)]);
  spec([created, issued('c1', 1)]).when(when('IssueEngineerCommand', { actorId: 'u1', commandId: 'c1', commandType: 'run', content: 'ls', clientId: null })).then(t, []);
  spec([created, waiting])
    .when(when('IssueEngineerCommand', { actorId: 'u1', commandId: 'i1', commandType: 'message', content: '继续', clientId: null }))
    .then(t, [
      { type: 'EngineerCommandIssued', data: { ...base, commandId: 'i1', seq: 1, commandType: 'message', content: '继续', clientId: null } },
      { type: 'EngineerStatusChanged', data: { ...base, status: 'running' } },
    ]);
});

test('each client is handed a command once, and never one addressed to another client', (t) => {
  const delivered: EngineerEvent = { type: 'EngineerCommandDelivered', data: { ...base, commandId: 'c1', clientId: 'cli-a' } };
  spec([created, issued('c1', 1), issued('c2', 2, 'cli-b')]).when(when('DeliverEngineerCommands', { actorId: 'u1', clientId: 'cli-a', commandIds: ['c1', 'c2'] })).then(t, [delivered]);
  spec([created, issued('c1', 1), delivered]).when(when('DeliverEngineerCommands', { actorId: 'u1', clientId: 'cli-a', commandIds: ['c1'] })).then(t, []);
});

test('a result is recorded once: the same again is a retry, another is a conflict', (t) => {
  const result = { commandId: 'c1', status: 'completed' as const, result: 'ok', errorMessage: null };
  const recorded: EngineerEvent = { type: 'EngineerCommandResultRecorded', data: { ...base, ...result } };
  spec([created, issued('c1', 1)]).when(when('RecordEngineerCommandResult', { actorId: 'u1', ...result })).then(t, [recorded]);
  spec([created, issued('c1', 1), recorded]).when(when('RecordEngineerCommandResult', { actorId: 'u1', ...result })).then(t, []);
  spec([created, issued('c1', 1), recorded]).when(when('RecordEngineerCommandResult', { actorId: 'u1', ...result, status: 'failed' })).thenThrows(t, 'conflict');
  spec([created]).when(when('RecordEngineerCommandResult', { actorId: 'u1', ...result })).thenThrows(t, 'not_found');
});

test('a proposal takes one answer: approve or reject wakes the session, a second answer or one recorded by the agent is refused, an unknown id is invalid', (t) => {
  const proposal: EngineerNode = { id: 'p1', parent_id: null, status: 'pending', timestamp: T1, node_type: 'tool_call', payload: { name: 'run_command', arguments: { command: 'ls -la' } } };
  const proposed: EngineerEvent = { type: 'EngineerNodesAppended', data: { ...base, nodes: [proposal] } };
  const waiting: EngineerEvent = { type: 'EngineerStatusChanged', data: { ...base, status: 'waiting_input' } };
  const answer = (commandId: string, commandType: 'approve' | 'reject', content = 'p1') => when('IssueEngineerCommand', { actorId: 'u1', commandId, commandType, content, clientId: null });
  const approved: EngineerEvent = { type: 'EngineerCommandIssued', data: { ...base, commandId: 'a1', seq: 1, commandType: 'approve', content: 'p1', clientId: null } };
  spec([created, proposed, waiting]).when(answer('a1', 'approve')).then(t, [approved, { type: 'EngineerStatusChanged', data: { ...base, status: 'running' } }]);
  spec([created, proposed]).when(answer('r1', 'reject')).then(t, [{ type: 'EngineerCommandIssued', data: { ...base, commandId: 'r1', seq: 1, commandType: 'reject', content: 'p1', clientId: null } }]);
  // The same command again is a retry; another answer comes second and is refused.
  spec([created, proposed, approved]).when(answer('a1', 'approve')).then(t, []);
  spec([created, proposed, approved]).when(answer('r1', 'reject')).thenThrows(t, 'conflict', '该命令建议已有答复');
  // Answered in the terminal: the agent recorded the command it ran under the proposal.
  const ran: EngineerEvent = { type: 'EngineerNodesAppended', data: { ...base, nodes: [{ ...node('c1', 'p1'), node_type: 'command', payload: { command: 'ls -la' } } as EngineerNode] } };
  spec([created, proposed, ran]).when(answer('a2', 'approve')).thenThrows(t, 'conflict');
  spec([created, proposed]).when(answer('x1', 'approve', 'ghost')).thenThrows(t, 'invalid', '没有待批准的命令建议：ghost');
  // A finished tool call is no proposal.
  spec([created, { type: 'EngineerNodesAppended', data: { ...base, nodes: [{ ...proposal, status: 'completed' }] } }]).when(answer('x2', 'approve')).thenThrows(t, 'invalid');
});

test('a node sent again under its id with a new status, payload or timing is updated; a replayed older version changes nothing', (t) => {
  const running: EngineerNode = { ...node('c'), node_type: 'command', status: 'running', payload: { command: 'npm test' } } as EngineerNode;
  const recorded: EngineerEvent = { type: 'EngineerNodesAppended', data: { ...base, nodes: [running] } };
  const completed = { ...running, status: 'completed', timestamp: '2026-11-20T09:00:05.000Z' } as EngineerNode;
  const updated: EngineerEvent = { type: 'EngineerNodesUpdated', data: { ...base, nodes: [{ ...completed, revision: 2 }] } };
  spec([created, recorded]).when(when('AppendEngineerNodes', { actorId: 'u1', nodes: [completed] })).then(t, [updated]);
  // Without a revision, any version the node already had is a retry or a replay.
  spec([created, recorded, updated]).when(when('AppendEngineerNodes', { actorId: 'u1', nodes: [running] })).then(t, []);
  spec([created, recorded, updated]).when(when('AppendEngineerNodes', { actorId: 'u1', nodes: [completed] })).then(t, []);
  // With one, the revision decides: an older or the same one is a replay, a higher one the next version.
  spec([created, recorded, updated]).when(when('AppendEngineerNodes', { actorId: 'u1', nodes: [{ ...running, status: 'failed', revision: 2 }] })).then(t, []);
  const failed = { ...running, status: 'failed', revision: 5 } as EngineerNode;
  spec([created, recorded, updated]).when(when('AppendEngineerNodes', { actorId: 'u1', nodes: [failed] })).then(t, [{ type: 'EngineerNodesUpdated', data: { ...base, nodes: [failed] } }]);
  // Recorded and updated in one batch: the update follows the record.
  spec([created])
    .when(when('AppendEngineerNodes', { actorId: 'u1', nodes: [running, completed] }))
    .then(t, [recorded, updated]);
  // What a node is and where it hangs stay.
  spec([created, { type: 'EngineerNodesAppended', data: { ...base, nodes: [node('a'), running] } }])
    .when(when('AppendEngineerNodes', { actorId: 'u1', nodes: [{ ...running, parent_id: 'a' }] }))
    .thenThrows(t, 'invalid', '节点 c 已记录：可以更新状态、内容和时间，不能改变类型或父节点');
  spec([created, recorded]).when(when('AppendEngineerNodes', { actorId: 'u1', nodes: [{ ...node('c'), status: 'running' }] })).thenThrows(t, 'invalid');
});

test('a proposal the agent updates out of pending waits for no answer', (t) => {
  const proposal: EngineerNode = { id: 'p1', parent_id: null, status: 'pending', timestamp: T1, node_type: 'tool_call', payload: { name: 'run_command', arguments: { command: 'ls' } } };
  const settled: EngineerEvent = { type: 'EngineerNodesUpdated', data: { ...base, nodes: [{ ...proposal, status: 'failed', revision: 2 }] } };
  spec([created, { type: 'EngineerNodesAppended', data: { ...base, nodes: [proposal] } }, settled])
    .when(when('IssueEngineerCommand', { actorId: 'u1', commandId: 'a1', commandType: 'approve', content: 'p1', clientId: null }))
    .thenThrows(t, 'conflict');
});
