import { createHash } from 'node:crypto';
import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import { nodeRevision, RUN_COMMAND_TOOL, type EngineerCommandType, type EngineerNode, type EngineerSessionStatus } from '../protocol/engineer.ts';

/**
 * One AI-engineer session (stream `engineer-<sessionId>`): the tree of steps an agent records while
 * it works, and the commands and input its owner sends back. Node ids are chosen by the sender, so a
 * batch sent again after a lost answer records nothing twice.
 */

export const ENGINEER_PREFIX = 'engineer-';
export const engineerStream = (sessionId: string): string => `${ENGINEER_PREFIX}${sessionId}`;

/** Who records the session: the command-line tool, the server's demo agent, or a user through the API. */
export type EngineerSource = 'cli' | 'demo' | 'api';

interface Base {
  sessionId: string;
  ownerId: string;
  at: string;
}

export type EngineerSessionCreated = DomainEvent<'EngineerSessionCreated', Base & { title: string; taskDescription: string; source: EngineerSource }>;
export type EngineerNodesAppended = DomainEvent<'EngineerNodesAppended', Base & { nodes: EngineerNode[] }>;
/** Nodes already recorded, sent again with another status, payload or timing; each carries its new revision. */
export type EngineerNodesUpdated = DomainEvent<'EngineerNodesUpdated', Base & { nodes: EngineerNode[] }>;
export type EngineerStatusChanged = DomainEvent<'EngineerStatusChanged', Base & { status: EngineerSessionStatus }>;
export type EngineerCommandIssued = DomainEvent<'EngineerCommandIssued', Base & { commandId: string; seq: number; commandType: EngineerCommandType; content: string; clientId: string | null }>;
export type EngineerCommandDelivered = DomainEvent<'EngineerCommandDelivered', Base & { commandId: string; clientId: string }>;
export type EngineerCommandResultRecorded = DomainEvent<'EngineerCommandResultRecorded', Base & { commandId: string; status: 'completed' | 'failed'; result: string; errorMessage: string | null }>;

export type EngineerEvent =
  | EngineerSessionCreated
  | EngineerNodesAppended
  | EngineerNodesUpdated
  | EngineerStatusChanged
  | EngineerCommandIssued
  | EngineerCommandDelivered
  | EngineerCommandResultRecorded;

export const ENGINEER_EVENT_TYPES = [
  'EngineerSessionCreated',
  'EngineerNodesAppended',
  'EngineerNodesUpdated',
  'EngineerStatusChanged',
  'EngineerCommandIssued',
  'EngineerCommandDelivered',
  'EngineerCommandResultRecorded',
] as const satisfies readonly EngineerEvent['type'][];

export interface CommandState {
  clientId: string | null;
  deliveredTo: readonly string[];
  result: { status: 'completed' | 'failed'; result: string; errorMessage: string | null } | null;
}

/**
 * What the session remembers of a node to judge a node sent again under its id: where it hangs and
 * what it is (neither changes), its revision, and a digest of every version it has had, so that a
 * version sent again without a revision (a retried or replayed older update) is known as one.
 */
export interface NodeMark {
  parentId: string | null;
  nodeType: EngineerNode['node_type'];
  revision: number;
  versions: readonly string[];
}

/** A digest of what an update may change (status, payload, timing), not of the sender's spelling of the time. */
export const nodeVersion = (node: EngineerNode): string =>
  createHash('sha256')
    .update(JSON.stringify([node.status, new Date(node.timestamp).toISOString(), node.title ?? null, node.tokens ?? null, node.payload]))
    .digest('base64url');

export type EngineerSession =
  | { status: 'none' }
  | {
      status: EngineerSessionStatus;
      ownerId: string;
      source: EngineerSource;
      /** Every node recorded, by id; a map so that a batch of 500 checks its duplicates in constant time each. */
      nodes: ReadonlyMap<string, NodeMark>;
      /**
       * Every `run_command` proposal and whether it still waits: it is answered once an approve or a
       * reject is issued for it, or a node is recorded under it (the agent's own answer from the terminal).
       */
      proposals: ReadonlyMap<string, 'pending' | 'answered'>;
      commands: Readonly<Record<string, CommandState>>;
      commandCount: number;
    };

export const initialState = (): EngineerSession => ({ status: 'none' });

export function evolve(state: EngineerSession, event: EngineerEvent): EngineerSession {
  if (event.type === 'EngineerSessionCreated') {
    return { status: 'running', ownerId: event.data.ownerId, source: event.data.source, nodes: new Map(), proposals: new Map(), commands: {}, commandCount: 0 };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'EngineerNodesAppended': {
      const proposals = new Map(state.proposals);
      for (const node of event.data.nodes) {
        if (node.parent_id !== null && proposals.has(node.parent_id)) proposals.set(node.parent_id, 'answered');
        if (isProposal(node)) proposals.set(node.id, 'pending');
      }
      const nodes = new Map(state.nodes);
      for (const node of event.data.nodes) nodes.set(node.id, { parentId: node.parent_id, nodeType: node.node_type, revision: nodeRevision(node), versions: [nodeVersion(node)] });
      return { ...state, nodes, proposals };
    }
    case 'EngineerNodesUpdated': {
      const proposals = new Map(state.proposals);
      const nodes = new Map(state.nodes);
      for (const node of event.data.nodes) {
        // A proposal the agent itself settled (ran it, or recorded it declined) waits for no answer.
        if (proposals.has(node.id) && !isProposal(node)) proposals.set(node.id, 'answered');
        const mark = nodes.get(node.id)!;
        nodes.set(node.id, { ...mark, revision: nodeRevision(node), versions: [...mark.versions, nodeVersion(node)] });
      }
      return { ...state, nodes, proposals };
    }
    case 'EngineerStatusChanged':
      return { ...state, status: event.data.status };
    case 'EngineerCommandIssued': {
      const { commandType, content } = event.data;
      const proposals = (commandType === 'approve' || commandType === 'reject') && state.proposals.has(content) ? new Map(state.proposals).set(content, 'answered' as const) : state.proposals;
      return { ...state, proposals, commandCount: event.data.seq, commands: { ...state.commands, [event.data.commandId]: { clientId: event.data.clientId, deliveredTo: [], result: null } } };
    }
    case 'EngineerCommandDelivered': {
      const command = state.commands[event.data.commandId]!;
      return { ...state, commands: { ...state.commands, [event.data.commandId]: { ...command, deliveredTo: [...command.deliveredTo, event.data.clientId] } } };
    }
    case 'EngineerCommandResultRecorded': {
      const { commandId, status, result, errorMessage } = event.data;
      return { ...state, commands: { ...state.commands, [commandId]: { ...state.commands[commandId]!, result: { status, result, errorMessage } } } };
    }
    default:
      return assertNever(event);
  }
}

/** A shell command the assistant proposes and a person has still to approve. */
export const isProposal = (node: EngineerNode): boolean => node.node_type === 'tool_call' && node.status === 'pending' && node.payload.name === RUN_COMMAND_TOOL;
