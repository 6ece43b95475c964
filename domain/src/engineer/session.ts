import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import { RUN_COMMAND_TOOL, type EngineerCommandType, type EngineerNode, type EngineerSessionStatus } from '../protocol/engineer.ts';

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
export type EngineerStatusChanged = DomainEvent<'EngineerStatusChanged', Base & { status: EngineerSessionStatus }>;
export type EngineerCommandIssued = DomainEvent<'EngineerCommandIssued', Base & { commandId: string; seq: number; commandType: EngineerCommandType; content: string; clientId: string | null }>;
export type EngineerCommandDelivered = DomainEvent<'EngineerCommandDelivered', Base & { commandId: string; clientId: string }>;
export type EngineerCommandResultRecorded = DomainEvent<'EngineerCommandResultRecorded', Base & { commandId: string; status: 'completed' | 'failed'; result: string; errorMessage: string | null }>;

export type EngineerEvent =
  | EngineerSessionCreated
  | EngineerNodesAppended
  | EngineerStatusChanged
  | EngineerCommandIssued
  | EngineerCommandDelivered
  | EngineerCommandResultRecorded;

export const ENGINEER_EVENT_TYPES = [
  'EngineerSessionCreated',
  'EngineerNodesAppended',
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

export type EngineerSession =
  | { status: 'none' }
  | {
      status: EngineerSessionStatus;
      ownerId: string;
      /** Every node id recorded; a set so that a batch of 500 checks its duplicates in constant time each. */
      nodeIds: ReadonlySet<string>;
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
    return { status: 'running', ownerId: event.data.ownerId, nodeIds: new Set(), proposals: new Map(), commands: {}, commandCount: 0 };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'EngineerNodesAppended': {
      const proposals = new Map(state.proposals);
      for (const node of event.data.nodes) {
        if (node.parent_id !== null && proposals.has(node.parent_id)) proposals.set(node.parent_id, 'answered');
        if (isProposal(node)) proposals.set(node.id, 'pending');
      }
      return { ...state, nodeIds: new Set([...state.nodeIds, ...event.data.nodes.map((node) => node.id)]), proposals };
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
