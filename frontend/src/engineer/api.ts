import type { EngineerCommandType, EngineerSessionStatus } from '@scriptorium/domain/protocol/engineer';
import type {
  CursorQuery,
  DemoBody,
  DemoStarted,
  EngineerCommandBody,
  EngineerCommandReply,
  EngineerCommands,
  EngineerNodeCursor,
  EngineerNodeStats,
  EngineerSessionDto,
  EngineerSessions,
  SessionListQuery,
} from '@scriptorium/domain/protocol/http/aiEngineer';
import { api } from '../api/client.ts';

export type { EngineerSessionDto as EngineerSession, EngineerNodeStats as EngineerStats, EngineerNodeCursor as EngineerNodePage } from '@scriptorium/domain/protocol/http/aiEngineer';

/** The cursor's largest page: a page as large as a batch an agent may send. */
export const NODE_PAGE = 500;

const session = (id: string) => `/api/ai-engineer/sessions/${encodeURIComponent(id)}`;

export const engineerApi = {
  list: (status: EngineerSessionStatus | '') => api.get<EngineerSessions, SessionListQuery>('/api/ai-engineer/sessions', { query: { status: status || undefined } }),
  get: (id: string) => api.get<EngineerSessionDto>(session(id)),
  /** Newer nodes than `cursor` (the oldest first when none): `up` walks the session from its start. */
  newer: (id: string, cursor: string | null) => api.get<EngineerNodeCursor, CursorQuery>(`${session(id)}/nodes/cursor`, { query: { direction: 'up', limit: NODE_PAGE, cursor: cursor ?? undefined } }),
  stats: (id: string) => api.get<EngineerNodeStats>(`${session(id)}/nodes/stats`),
  commands: (id: string) => api.get<EngineerCommands>(`${session(id)}/commands`),
  send: (id: string, commandType: EngineerCommandType, content: string) => api.post<EngineerCommandReply, EngineerCommandBody>(`${session(id)}/commands`, { json: { command_type: commandType, content } }),
  startDemo: (taskDescription: string) => api.post<DemoStarted, DemoBody>('/api/ai-engineer/start-demo', { json: { task_description: taskDescription } }),
  stop: (id: string) => api.post<EngineerSessionDto>(`/api/ai-engineer/executions/${encodeURIComponent(id)}/stop`),
};
