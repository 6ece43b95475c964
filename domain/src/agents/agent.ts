import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import type { CodedError } from '../protocol/errors.ts';

/** A user's own assistant: a name, what it is for, its instructions and the platform tools it may use (stream `agent-<id>`). */

export interface AgentProfile {
  name: string;
  description: string;
  instructions: string;
  tools: string[];
}

export type AgentCreated = DomainEvent<'AgentCreated', AgentProfile & { agentId: string; ownerId: string; at: string }>;
export type AgentUpdated = DomainEvent<'AgentUpdated', AgentProfile & { agentId: string; ownerId: string; at: string }>;
export type AgentDeleted = DomainEvent<'AgentDeleted', { agentId: string; ownerId: string; at: string }>;
/** A tool tried from the agent's page; the monitoring view lists them. */
/** `refusal`: a failed run's reason in catalogue form, so the history words it in its reader's language (the summary is Chinese). */
export type AgentToolTested = DomainEvent<'AgentToolTested', { agentId: string; ownerId: string; tool: string; ok: boolean; summary: string; refusal?: CodedError; durationMs: number; at: string }>;
export type AgentEvent = AgentCreated | AgentUpdated | AgentDeleted | AgentToolTested;

export type Agent = { status: 'none' } | ({ status: 'active'; ownerId: string } & AgentProfile) | { status: 'deleted' };

export const initialState = (): Agent => ({ status: 'none' });

export const agentStream = (agentId: string): string => `agent-${agentId}`;

export function evolve(state: Agent, event: AgentEvent): Agent {
  switch (event.type) {
    case 'AgentCreated':
    case 'AgentUpdated': {
      const { ownerId, name, description, instructions, tools } = event.data;
      return { status: 'active', ownerId, name, description, instructions, tools };
    }
    case 'AgentDeleted':
      return { status: 'deleted' };
    case 'AgentToolTested':
      return state;
    default:
      return assertNever(event);
  }
}
