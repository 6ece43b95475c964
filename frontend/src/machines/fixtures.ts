import type { Session } from '@scriptorium/domain/protocol/http/conversation';

/** A session as the server lists it, for the machines' tests; `fields` changes what a test is about. */
export const sessionDto = (id: string, fields: Partial<Session> = {}): Session => ({
  session_id: id,
  id,
  name: '默认会话',
  title: null,
  prompt: null,
  created_at: '2025-06-01T00:00:00Z',
  updated_at: '2025-06-01T00:00:00Z',
  collaboration_mode: 1,
  search_enabled: true,
  layout_preset: 'home-welcome',
  status: 'active',
  processing: false,
  activity: 'idle',
  message_count: 0,
  ...fields,
});
