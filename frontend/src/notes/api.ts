import type { NoteContent, NoteCreate, NoteDetail, NoteMove, NoteRename, NoteSaved, NotesDeleted, NoteShare, NoteShareLink, NoteSummary, NoteTree, SharedNote } from '@scriptorium/domain/protocol/http/notes';
import type { Revoked } from '@scriptorium/domain/protocol/http/acknowledged';
import { api } from '../api/client.ts';

export type { NoteDetail, NoteSummary, SharedNote, SharedNoteChild } from '@scriptorium/domain/protocol/http/notes';

export type DropPosition = NoteMove['position'];

const path = (id: string) => `/api/notes/${encodeURIComponent(id)}`;

export const notesApi = {
  list: () => api.get<NoteTree>('/api/notes'),
  create: (body: NoteCreate) => api.post<NoteDetail, NoteCreate>('/api/notes', { json: body }),
  get: (id: string) => api.get<NoteDetail>(path(id)),
  rename: (id: string, name: string) => api.patch<NoteSummary, NoteRename>(path(id), { json: { name } }),
  save: (id: string, content: string, revision: number) => api.put<NoteSaved, NoteContent>(`${path(id)}/content`, { json: { content, revision } }),
  move: (id: string, targetId: string | null, position: DropPosition) => api.post<NoteTree, NoteMove>(`${path(id)}/move`, { json: { target_id: targetId, position } }),
  remove: (id: string) => api.delete<NotesDeleted>(path(id)),
  share: (id: string, expiresDays: number | null) => api.post<NoteShareLink, NoteShare>(`${path(id)}/share`, { json: { expires_days: expiresDays } }),
  revokeShare: (id: string) => api.delete<Revoked>(`${path(id)}/share`),
  shared: (token: string) => api.get<SharedNote>(`/api/notes/shared/${encodeURIComponent(token)}`),
};
