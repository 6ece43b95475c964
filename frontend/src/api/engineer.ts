import type { EngineerCommandDto, EngineerCommandType, EngineerNode, EngineerSessionStatus } from '@scriptorium/domain/protocol/engineer';
import { api } from './client.ts';

export interface EngineerSession {
  id: string;
  title: string;
  task_description: string;
  status: EngineerSessionStatus;
  source: 'cli' | 'demo' | 'api';
  node_count: number;
  command_count: number;
  created_at: string;
  updated_at: string;
}

export interface EngineerStats {
  total_nodes: number;
  by_type: Record<string, number>;
  by_status: Record<string, number>;
  tokens: number;
  command_count: number;
  duration_seconds: number;
}

type TreeNode = EngineerNode & { children: TreeNode[] };

const session = (id: string) => `/api/ai-engineer/sessions/${encodeURIComponent(id)}`;

/** Flattens the server's nested tree into nodes by id, the shape the live view merges socket batches into. */
export function flattenTree(tree: TreeNode[]): EngineerNode[] {
  const out: EngineerNode[] = [];
  const stack = [...tree];
  while (stack.length > 0) {
    const { children, ...node } = stack.pop()!;
    out.push(node as EngineerNode);
    stack.push(...children);
  }
  return out;
}

export const engineerApi = {
  list: (status: EngineerSessionStatus | '') => api.get<{ sessions: EngineerSession[]; total: number }>('/api/ai-engineer/sessions', { query: { status: status || undefined } }),
  get: (id: string) => api.get<EngineerSession>(session(id)),
  tree: (id: string) => api.get<{ session: EngineerSession; tree: TreeNode[]; truncated: boolean }>(`${session(id)}/tree`),
  stats: (id: string) => api.get<EngineerStats>(`${session(id)}/nodes/stats`),
  commands: (id: string) => api.get<{ commands: EngineerCommandDto[] }>(`${session(id)}/commands`),
  send: (id: string, commandType: EngineerCommandType, content: string) => api.post<EngineerCommandDto>(`${session(id)}/commands`, { json: { command_type: commandType, content } }),
  startDemo: (taskDescription: string) => api.post<{ execution_id: string; session: EngineerSession }>('/api/ai-engineer/start-demo', { json: { task_description: taskDescription } }),
  stop: (id: string) => api.post<EngineerSession>(`/api/ai-engineer/executions/${encodeURIComponent(id)}/stop`),
};
