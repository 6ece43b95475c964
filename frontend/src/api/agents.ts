import type { AgentDetail, AgentDto, AgentList, ToolTestResult } from '@scriptorium/domain/protocol/http/agents';
import type { Deleted } from '@scriptorium/domain/protocol/http/acknowledged';
import { api } from './client.ts';

export type { AgentDto, ToolDescriptor, ToolRun, ToolTestResult } from '@scriptorium/domain/protocol/http/agents';

export interface AgentInput {
  name: string;
  description: string;
  instructions: string;
  tools: string[];
}

const path = (id: string) => `/api/agents/${encodeURIComponent(id)}`;

export const agentsApi = {
  list: () => api.get<AgentList>('/api/agents'),
  create: (input: AgentInput) => api.post<AgentDto>('/api/agents', { json: input }),
  get: (id: string) => api.get<AgentDetail>(path(id)),
  update: (id: string, input: Partial<AgentInput>) => api.patch<AgentDto>(path(id), { json: input }),
  remove: (id: string) => api.delete<Deleted>(path(id)),
  testTool: (tool: string, args: Record<string, unknown>, agentId?: string) => api.post<ToolTestResult>('/api/agents/tools/test', { json: { tool, args, ...(agentId && { agent_id: agentId }) } }),
};
