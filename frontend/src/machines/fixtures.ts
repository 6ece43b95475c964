import type { SessionDto } from '../api/research.ts';

/** A session as the server lists it, for the machines' tests; `fields` changes what a test is about. */
export const sessionDto = (id: string, fields: Partial<SessionDto> = {}): SessionDto => ({
  session_id: id,
  name: '默认会话',
  title: null,
  created_at: '2025-06-01T00:00:00Z',
  collaboration_mode: 1,
  search_enabled: true,
  layout_preset: 'home-welcome',
  status: 'active',
  processing: false,
  activity: 'idle',
  message_count: 0,
  ...fields,
});
