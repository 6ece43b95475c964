import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { ENDED_STATUSES, ENGINEER_LIMITS, nodeRevision, type EngineerCommandType, type EngineerNode, type EngineerSessionStatus } from '../protocol/engineer.ts';
import { refuse } from '../refuse.ts';
import { evolve, initialState, nodeVersion, type EngineerEvent, type EngineerSession, type EngineerSource, type NodeMark } from './session.ts';

type Live = Exclude<EngineerSession, { status: 'none' }>;
interface Target {
  sessionId: string;
  actorId: string;
}

export type CreateEngineerSession = Command<'CreateEngineerSession', { sessionId: string; ownerId: string; title: string; taskDescription: string; source: EngineerSource }>;
export type AppendEngineerNodes = Command<'AppendEngineerNodes', Target & { nodes: EngineerNode[]; status?: EngineerSessionStatus }>;
export type ChangeEngineerStatus = Command<'ChangeEngineerStatus', Target & { status: EngineerSessionStatus }>;
export type IssueEngineerCommand = Command<'IssueEngineerCommand', Target & { commandId: string; commandType: EngineerCommandType; content: string; clientId: string | null }>;
export type DeliverEngineerCommands = Command<'DeliverEngineerCommands', Target & { clientId: string; commandIds: string[] }>;
export type RecordEngineerCommandResult = Command<'RecordEngineerCommandResult', Target & { commandId: string; status: 'completed' | 'failed'; result: string; errorMessage: string | null }>;
export type EngineerCommand = CreateEngineerSession | AppendEngineerNodes | ChangeEngineerStatus | IssueEngineerCommand | DeliverEngineerCommands | RecordEngineerCommandResult;

/** Another user's session answers as a missing one, so ids cannot be probed. */
function owned(state: EngineerSession, actorId: string): Live {
  if (state.status === 'none' || state.ownerId !== actorId) throw refuse('not_found', 'engineer.not_found');
  return state;
}

function open(state: EngineerSession, actorId: string): Live {
  const session = owned(state, actorId);
  if (ENDED_STATUSES.includes(session.status)) throw refuse('conflict', 'engineer.session_ended');
  return session;
}

const base = (command: Command<string, Target>, ownerId: string) => ({ sessionId: command.data.sessionId, ownerId, at: command.metadata.now.toISOString() });

const statusChange = (session: Live, command: Command<string, Target>, status: EngineerSessionStatus | undefined): EngineerEvent[] =>
  status === undefined || status === session.status ? [] : [{ type: 'EngineerStatusChanged', data: { ...base(command, session.ownerId), status } }];

/** Creating the same session again (a retried request) records nothing. */
export const createEngineerSession = (command: CreateEngineerSession, state: EngineerSession): EngineerEvent[] => {
  const { ownerId, title } = command.data;
  if (state.status !== 'none') {
    if (state.ownerId !== ownerId) throw refuse('not_found', 'engineer.not_found');
    return [];
  }
  if (title.trim() === '') throw refuse('invalid', 'engineer.title_empty', {}, 'title');
  return [{ type: 'EngineerSessionCreated', data: { ...command.data, title: title.trim(), at: command.metadata.now.toISOString() } }];
};

/**
 * A node is recorded once per id and updated under it: sent again with a revision above the one
 * recorded (or, without one, with a status, payload or timing it never had) it becomes its next
 * version; sent again as it is or was (a retry, a replayed older update) it changes nothing. Where
 * a node hangs and what it is never change. A parent must be recorded earlier or come earlier in
 * the batch, so the tree never has a dangling branch.
 */
export const appendEngineerNodes = (command: AppendEngineerNodes, state: EngineerSession): EngineerEvent[] => {
  const { actorId, status } = command.data;
  if (command.data.nodes.length === 0 && status !== undefined) return changeEngineerStatus({ ...command, type: 'ChangeEngineerStatus', data: { sessionId: command.data.sessionId, actorId, status } }, state);
  const session = open(state, actorId);
  const known = new Map<string, NodeMark>(session.nodes);
  const fresh: EngineerNode[] = [];
  const updated: EngineerNode[] = [];
  for (const node of command.data.nodes) {
    const version = nodeVersion(node);
    const mark = known.get(node.id);
    if (mark === undefined) {
      if (node.parent_id !== null && !known.has(node.parent_id)) throw refuse('invalid', 'engineer.parent_unknown', { id: node.parent_id }, 'nodes');
      known.set(node.id, { parentId: node.parent_id, nodeType: node.node_type, revision: nodeRevision(node), versions: [version] });
      fresh.push(node);
      continue;
    }
    if (mark.parentId !== node.parent_id || mark.nodeType !== node.node_type) throw refuse('invalid', 'engineer.node_reshaped', { id: node.id }, 'nodes');
    if (node.revision === undefined ? mark.versions.includes(version) : node.revision <= mark.revision) continue;
    const revision = node.revision ?? mark.revision + 1;
    known.set(node.id, { ...mark, revision, versions: [...mark.versions, version] });
    updated.push({ ...node, revision });
  }
  if (known.size > ENGINEER_LIMITS.nodesPerSession) throw refuse('invalid', 'engineer.too_many_nodes', { max: ENGINEER_LIMITS.nodesPerSession }, 'nodes');
  const data = base(command, session.ownerId);
  return [
    ...(fresh.length > 0 ? [{ type: 'EngineerNodesAppended' as const, data: { ...data, nodes: fresh } }] : []),
    ...(updated.length > 0 ? [{ type: 'EngineerNodesUpdated' as const, data: { ...data, nodes: updated } }] : []),
    ...statusChange(session, command, command.data.status),
  ];
};

/** An ended session keeps its end: saying the same end again is nothing, another is refused. */
export const changeEngineerStatus = (command: ChangeEngineerStatus, state: EngineerSession): EngineerEvent[] => {
  const session = owned(state, command.data.actorId);
  if (session.status === command.data.status) return [];
  return statusChange(open(state, command.data.actorId), command, command.data.status);
};

/**
 * A message or an answer to a proposal moves a session waiting for input on, so it runs again. A
 * proposal takes one answer: the first, from the browser or the terminal, wins and a later one is refused.
 */
export const issueEngineerCommand = (command: IssueEngineerCommand, state: EngineerSession): EngineerEvent[] => {
  const session = open(state, command.data.actorId);
  const { commandId, commandType, content, clientId } = command.data;
  if (session.commands[commandId]) return [];
  const answer = commandType === 'approve' || commandType === 'reject';
  if (answer) {
    const proposal = session.proposals.get(content);
    if (proposal === undefined) throw refuse('invalid', 'engineer.proposal_unknown', { id: content }, 'content');
    if (proposal === 'answered') throw refuse('conflict', 'engineer.proposal_answered');
  }
  return [
    { type: 'EngineerCommandIssued', data: { ...base(command, session.ownerId), commandId, seq: session.commandCount + 1, commandType, content, clientId } },
    ...((commandType === 'message' || answer) && session.status === 'waiting_input' ? statusChange(session, command, 'running') : []),
  ];
};

/** Each client is handed a command once; commands addressed to another client are not its to take. */
export const deliverEngineerCommands = (command: DeliverEngineerCommands, state: EngineerSession): EngineerEvent[] => {
  const session = owned(state, command.data.actorId);
  const { clientId } = command.data;
  return command.data.commandIds
    .filter((commandId) => {
      const known = session.commands[commandId];
      return known !== undefined && (known.clientId === null || known.clientId === clientId) && !known.deliveredTo.includes(clientId);
    })
    .map((commandId) => ({ type: 'EngineerCommandDelivered', data: { ...base(command, session.ownerId), commandId, clientId } }));
};

/** A result is recorded once: the same result again is a retry, a different one a conflict. Ended sessions still take results of what ran before the end. */
export const recordEngineerCommandResult = (command: RecordEngineerCommandResult, state: EngineerSession): EngineerEvent[] => {
  const session = owned(state, command.data.actorId);
  const { commandId, status, result, errorMessage } = command.data;
  const known = session.commands[commandId];
  if (!known) throw refuse('not_found', 'engineer.command_not_found');
  if (known.result) {
    if (known.result.status === status && known.result.result === result && known.result.errorMessage === errorMessage) return [];
    throw refuse('conflict', 'engineer.result_recorded');
  }
  return [{ type: 'EngineerCommandResultRecorded', data: { ...base(command, session.ownerId), commandId, status, result, errorMessage } }];
};

export function decide(command: EngineerCommand, state: EngineerSession): EngineerEvent[] {
  switch (command.type) {
    case 'CreateEngineerSession':
      return createEngineerSession(command, state);
    case 'AppendEngineerNodes':
      return appendEngineerNodes(command, state);
    case 'ChangeEngineerStatus':
      return changeEngineerStatus(command, state);
    case 'IssueEngineerCommand':
      return issueEngineerCommand(command, state);
    case 'DeliverEngineerCommands':
      return deliverEngineerCommands(command, state);
    case 'RecordEngineerCommandResult':
      return recordEngineerCommandResult(command, state);
    default:
      return assertNever(command);
  }
}

export const engineerDecider: Decider<EngineerSession, EngineerCommand, EngineerEvent> = { initialState, evolve, decide };
