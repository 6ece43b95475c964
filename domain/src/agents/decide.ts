import { errorText, type CodedError } from '../protocol/errors.ts';
import { refuse } from '../refuse.ts';
import { MAX_AGENT_DESCRIPTION, MAX_AGENT_NAME, MAX_INSTRUCTIONS } from '../protocol/http/agents.ts';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolve, initialState, type Agent, type AgentEvent, type AgentProfile } from './agent.ts';

export const AGENT_NOT_FOUND = errorText('agents.not_found');

type Owner = { agentId: string; actorId: string };
/** `knownTools` is the platform's tool list, given by the caller so the decision stays pure. */
export type CreateAgent = Command<'CreateAgent', Owner & AgentProfile & { knownTools: readonly string[] }>;
export type UpdateAgent = Command<'UpdateAgent', Owner & Partial<AgentProfile> & { knownTools: readonly string[] }>;
export type DeleteAgent = Command<'DeleteAgent', Owner>;
export type RecordToolTest = Command<'RecordToolTest', Owner & { tool: string; ok: boolean; summary: string; refusal?: CodedError; durationMs: number }>;
export type AgentCommand = CreateAgent | UpdateAgent | DeleteAgent | RecordToolTest;

function owned(state: Agent, actorId: string): Extract<Agent, { status: 'active' }> {
  if (state.status !== 'active' || state.ownerId !== actorId) throw refuse('not_found', 'agents.not_found');
  return state;
}

function validProfile(profile: AgentProfile, knownTools: readonly string[]): AgentProfile {
  const name = profile.name.trim();
  const description = profile.description.trim();
  const instructions = profile.instructions.trim();
  if (!name) throw refuse('invalid', 'agents.name_empty', {}, 'name');
  if (name.length > MAX_AGENT_NAME) throw refuse('invalid', 'agents.name_too_long', { max: MAX_AGENT_NAME }, 'name');
  if (description.length > MAX_AGENT_DESCRIPTION) throw refuse('invalid', 'agents.description_too_long', { max: MAX_AGENT_DESCRIPTION }, 'description');
  if (!instructions) throw refuse('invalid', 'agents.instructions_empty', {}, 'instructions');
  if (instructions.length > MAX_INSTRUCTIONS) throw refuse('invalid', 'agents.instructions_too_long', { max: MAX_INSTRUCTIONS }, 'instructions');
  const tools = [...new Set(profile.tools)];
  const unknown = tools.filter((tool) => !knownTools.includes(tool));
  if (unknown.length > 0) throw refuse('invalid', 'agents.unknown_tools', { tools: unknown.join('、') }, 'tools');
  return { name, description, instructions, tools };
}

export const createAgent = (command: CreateAgent, state: Agent): AgentEvent[] => {
  if (state.status !== 'none') return [];
  const { agentId, actorId, knownTools, ...profile } = command.data;
  return [{ type: 'AgentCreated', data: { agentId, ownerId: actorId, ...validProfile(profile, knownTools), at: command.metadata.now.toISOString() } }];
};

export const updateAgent = (command: UpdateAgent, state: Agent): AgentEvent[] => {
  const { agentId, actorId, knownTools, ...changes } = command.data;
  const current = owned(state, actorId);
  const profile = validProfile(
    {
      name: changes.name ?? current.name,
      description: changes.description ?? current.description,
      instructions: changes.instructions ?? current.instructions,
      tools: changes.tools ?? current.tools,
    },
    knownTools,
  );
  if (profile.name === current.name && profile.description === current.description && profile.instructions === current.instructions && profile.tools.join() === current.tools.join()) return [];
  return [{ type: 'AgentUpdated', data: { agentId, ownerId: actorId, ...profile, at: command.metadata.now.toISOString() } }];
};

export const deleteAgent = (command: DeleteAgent, state: Agent): AgentEvent[] => {
  const { agentId, actorId } = command.data;
  owned(state, actorId);
  return [{ type: 'AgentDeleted', data: { agentId, ownerId: actorId, at: command.metadata.now.toISOString() } }];
};

export const recordToolTest = (command: RecordToolTest, state: Agent): AgentEvent[] => {
  const { agentId, actorId, tool, ok, summary, refusal, durationMs } = command.data;
  owned(state, actorId);
  return [{ type: 'AgentToolTested', data: { agentId, ownerId: actorId, tool, ok, summary: summary.slice(0, 300), ...(refusal && { refusal }), durationMs, at: command.metadata.now.toISOString() } }];
};

export function decide(command: AgentCommand, state: Agent): AgentEvent[] {
  switch (command.type) {
    case 'CreateAgent':
      return createAgent(command, state);
    case 'UpdateAgent':
      return updateAgent(command, state);
    case 'DeleteAgent':
      return deleteAgent(command, state);
    case 'RecordToolTest':
      return recordToolTest(command, state);
    default:
      return assertNever(command);
  }
}

export const agentDecider: Decider<Agent, AgentCommand, AgentEvent> = { initialState, evolve, decide };
