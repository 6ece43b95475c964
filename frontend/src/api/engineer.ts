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

/** One page of the cursor walk (spec 02 §9): nodes newest first within the page. */
export interface EngineerNodePage {
  nodes: EngineerNode[];
  has_more: boolean;
  next_cursor: string | null;
  prev_cursor: string | null;
}

/** The cursor's largest page: a page as large as a batch an agent may send. */
export const NODE_PAGE = 500;

const session = (id: string) => `/api/ai-engineer/sessions/${encodeURIComponent(id)}`;

export const engineerApi = {
  list: (status: EngineerSessionStatus | '') => api.get<{ sessions: EngineerSession[]; total: number }>('/api/ai-engineer/sessions', { query: { status: status || undefined } }),
  get: (id: string) => api.get<EngineerSession>(session(id)),
  /** Newer nodes than `cursor` (the oldest first when none): `up` walks the session from its start. */
  newer: (id: string, cursor: string | null) => api.get<EngineerNodePage>(`${session(id)}/nodes/cursor`, { query: { direction: 'up', limit: NODE_PAGE, cursor: cursor ?? undefined } }),
  stats: (id: string) => api.get<EngineerStats>(`${session(id)}/nodes/stats`),
  commands: (id: string) => api.get<{ commands: EngineerCommandDto[] }>(`${session(id)}/commands`),
  send: (id: string, commandType: EngineerCommandType, content: string) => api.post<EngineerCommandDto>(`${session(id)}/commands`, { json: { command_type: commandType, content } }),
  startDemo: (taskDescription: string) => api.post<{ execution_id: string; session: EngineerSession }>('/api/ai-engineer/start-demo', { json: { task_description: taskDescription } }),
  stop: (id: string) => api.post<EngineerSession>(`/api/ai-engineer/executions/${encodeURIComponent(id)}/stop`),
};
