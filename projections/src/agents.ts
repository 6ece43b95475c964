import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { AgentEvent } from '@scriptorium/domain/agents/agent';
import type { CodedError } from '@scriptorium/domain/protocol/errors';
import { countOnce, type Projection } from './projection.ts';

export interface AgentDoc extends Doc {
  owner_id: string;
  name: string;
  description: string;
  instructions: string;
  tools: string[];
  tests: number;
  failed_tests: number;
  last_test_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One tool run from the agents page, newest first per agent. */
export interface AgentToolTestDoc extends Doc {
  agent_id: string;
  owner_id: string;
  tool: string;
  ok: boolean;
  summary: string;
  /** A failed run's reason as a code and params, when the catalogue words it. */
  refusal?: CodedError;
  duration_ms: number;
  at: string;
}

export const AGENTS = 'agents';
export const AGENT_TOOL_TESTS = 'agent_tool_tests';

export const agentsProjection: Projection = {
  name: 'agents',
  collections: [AGENTS, AGENT_TOOL_TESTS],
  handles: ['AgentCreated', 'AgentUpdated', 'AgentDeleted', 'AgentToolTested'] satisfies AgentEvent['type'][],
  async setup(store) {
    await store.collection(AGENTS).ensureIndex({ fields: { owner_id: 1, updated_at: -1 } });
    await store.collection(AGENT_TOOL_TESTS).ensureIndex({ fields: { agent_id: 1, at: -1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const agents = tx.collection<AgentDoc>(AGENTS);
    const event = { type: recorded.type, data: recorded.data } as AgentEvent;
    switch (event.type) {
      case 'AgentCreated': {
        const { agentId, ownerId, name, description, instructions, tools, at } = event.data;
        await agents.put({ _id: agentId, owner_id: ownerId, name, description, instructions, tools, tests: 0, failed_tests: 0, last_test_at: null, created_at: at, updated_at: at });
        return;
      }
      case 'AgentUpdated': {
        const { agentId, name, description, instructions, tools, at } = event.data;
        await agents.update(agentId, { $set: { name, description, instructions, tools, updated_at: at } });
        return;
      }
      case 'AgentDeleted':
        await agents.delete(event.data.agentId);
        await tx.collection(AGENT_TOOL_TESTS).deleteMany({ agent_id: event.data.agentId });
        return;
      case 'AgentToolTested': {
        const { agentId, ownerId, tool, ok, summary, refusal, durationMs, at } = event.data;
        await tx.collection<AgentToolTestDoc>(AGENT_TOOL_TESTS).put({ _id: recorded.id, agent_id: agentId, owner_id: ownerId, tool, ok, summary, ...(refusal && { refusal }), duration_ms: durationMs, at });
        await countOnce(agents, agentId, recorded.position, { $inc: { tests: 1, failed_tests: ok ? 0 : 1 }, $set: { last_test_at: at } });
        return;
      }
      default:
        assertNever(event);
    }
  },
};
