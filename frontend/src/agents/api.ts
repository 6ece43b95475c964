import type { AgentCreateBody, AgentDetail, AgentDto, AgentList, AgentUpdateBody, ToolTestBody, ToolTestResult } from '@scriptorium/domain/protocol/http/agents';
import type { Deleted } from '@scriptorium/domain/protocol/http/acknowledged';
import { api } from '../api/client.ts';

export type { AgentDto, ToolDescriptor, ToolRun, ToolTestResult } from '@scriptorium/domain/protocol/http/agents';

/** An agent's profile as the page edits it whole: every field the create request takes. */
export type AgentInput = Required<AgentCreateBody>;

const path = (id: string) => `/api/agents/${encodeURIComponent(id)}`;

export const agentsApi = {
  list: () => api.get<AgentList>('/api/agents'),
  create: (input: AgentCreateBody) => api.post<AgentDto, AgentCreateBody>('/api/agents', { json: input }),
  get: (id: string) => api.get<AgentDetail>(path(id)),
  update: (id: string, input: AgentUpdateBody) => api.patch<AgentDto, AgentUpdateBody>(path(id), { json: input }),
  remove: (id: string) => api.delete<Deleted>(path(id)),
  testTool: (tool: string, args: Record<string, unknown>, agentId?: string) =>
    api.post<ToolTestResult, ToolTestBody>('/api/agents/tools/test', { json: { tool, args, ...(agentId && { agent_id: agentId }) } }),
};
