import { api } from './client.ts';

export interface ToolDescriptor {
  name: string;
  description: string;
  parameters: { properties?: Record<string, { type?: string; description?: string; default?: unknown; enum?: unknown[]; items?: unknown }>; required?: string[] };
}

export interface AgentDto {
  id: string;
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

export interface ToolRun {
  tool: string;
  ok: boolean;
  /** The result as JSON, or the reason in Chinese; a failure the catalogue words also has `code` and `params`. */
  summary: string;
  code?: string;
  params?: Record<string, string | number>;
  duration_ms: number;
  at: string;
}

/** A failed run's `error` is the server's Chinese text; `code` and `params`, when given, word it in the reader's language. */
export type ToolTestResult = { tool: string; ok: true; result: unknown; count: number; duration_ms: number } | { tool: string; ok: false; error: string; code?: string; params?: Record<string, string | number>; duration_ms: number };

export interface AgentInput {
  name: string;
  description: string;
  instructions: string;
  tools: string[];
}

const path = (id: string) => `/api/agents/${encodeURIComponent(id)}`;

export const agentsApi = {
  list: () => api.get<{ agents: AgentDto[]; tools: ToolDescriptor[] }>('/api/agents'),
  create: (input: AgentInput) => api.post<AgentDto>('/api/agents', { json: input }),
  get: (id: string) => api.get<AgentDto & { recent_tests: ToolRun[] }>(path(id)),
  update: (id: string, input: Partial<AgentInput>) => api.patch<AgentDto>(path(id), { json: input }),
  remove: (id: string) => api.delete<{ deleted: boolean }>(path(id)),
  testTool: (tool: string, args: Record<string, unknown>, agentId?: string) => api.post<ToolTestResult>('/api/agents/tools/test', { json: { tool, args, ...(agentId && { agent_id: agentId }) } }),
};
