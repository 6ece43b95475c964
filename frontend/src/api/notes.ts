import { api } from './client.ts';

export interface NoteSummary {
  id: string;
  name: string;
  parent_id: string | null;
  order: number;
  created_at: string;
  updated_at: string;
  /** Its own link opens it now; the notes below it are public through that link too. */
  shared: boolean;
}

export interface NoteDetail extends NoteSummary {
  content: string;
  revision: number;
  share: { token: string; path: string; expires_at: string | null } | null;
}

export type DropPosition = 'before' | 'after' | 'inside';

export interface SharedNoteChild {
  id: string;
  name: string;
  parent_id: string;
  order: number;
  content: string;
  updated_at: string;
}

export interface SharedNote {
  token: string;
  id: string;
  children: SharedNoteChild[];
  name: string;
  content: string;
  updated_at: string;
  expires_at: string | null;
  owner: string;
}

const path = (id: string) => `/api/notes/${encodeURIComponent(id)}`;

export const notesApi = {
  list: () => api.get<{ notes: NoteSummary[] }>('/api/notes'),
  create: (body: { name?: string; parent_id?: string | null; content?: string }) => api.post<NoteDetail>('/api/notes', { json: body }),
  get: (id: string) => api.get<NoteDetail>(path(id)),
  rename: (id: string, name: string) => api.patch<NoteSummary>(path(id), { json: { name } }),
  save: (id: string, content: string, revision: number) => api.put<{ revision: number; updated_at: string }>(`${path(id)}/content`, { json: { content, revision } }),
  move: (id: string, targetId: string | null, position: DropPosition) => api.post<{ notes: NoteSummary[] }>(`${path(id)}/move`, { json: { target_id: targetId, position } }),
  remove: (id: string) => api.delete<{ deleted: string[] }>(path(id)),
  share: (id: string, expiresDays: number | null) => api.post<{ token: string; path: string; expires_at: string | null }>(`${path(id)}/share`, { json: { expires_days: expiresDays } }),
  revokeShare: (id: string) => api.delete<{ revoked: boolean }>(`${path(id)}/share`),
  shared: (token: string) => api.get<SharedNote>(`/api/notes/shared/${encodeURIComponent(token)}`),
};
