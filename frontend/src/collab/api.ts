import type {
  AcceptCollabInviteBody,
  ChangeCollabRoleBody,
  CollabDocDto,
  CollabDocListDto,
  CollabDocSummaryDto,
  CollabHistoryDto,
  CollabInviteDto,
  CollabInvitesDto,
  CollabMembersDto,
  CollabRole,
  CollabVersionDto,
  CreateCollabDocBody,
  CreateCollabInviteBody,
  RenameCollabDocBody,
} from '@scriptorium/domain/protocol/collab';
import { api } from '../api/client.ts';

const doc = (id: string) => `/api/collab/docs/${encodeURIComponent(id)}`;

/** Shared documents (`/collaboration`): the steps themselves go over the document's socket (`collab/live.ts`). */
export const collabApi = {
  list: () => api.get<CollabDocListDto>('/api/collab/docs'),
  /** `start`: a research report's version to co-edit, its content already in the shared schema. */
  create: (title: string, start?: Required<Pick<CreateCollabDocBody, 'report' | 'doc'>>) => api.post<CollabDocSummaryDto, CreateCollabDocBody>('/api/collab/docs', { json: { title, ...start } }),
  get: (id: string) => api.get<CollabDocDto>(doc(id)),
  invite: (id: string, role: CollabRole) => api.post<CollabInviteDto, CreateCollabInviteBody>(`${doc(id)}/invites`, { json: { role } }),
  rename: (id: string, title: string) => api.patch<CollabDocSummaryDto, RenameCollabDocBody>(doc(id), { json: { title } }),
  invites: (id: string) => api.get<CollabInvitesDto>(`${doc(id)}/invites`),
  revokeInvite: (id: string, inviteId: string) => api.delete<void>(`${doc(id)}/invites/${encodeURIComponent(inviteId)}`),
  members: (id: string) => api.get<CollabMembersDto>(`${doc(id)}/members`),
  /** Removes a member (the owner), or leaves when `userId` is the caller's own. */
  removeMember: (id: string, userId: string) => api.delete<void>(`${doc(id)}/members/${encodeURIComponent(userId)}`),
  changeRole: (id: string, userId: string, role: CollabRole) => api.put<CollabMembersDto, ChangeCollabRoleBody>(`${doc(id)}/members/${encodeURIComponent(userId)}`, { json: { role } }),
  accept: (token: string) => api.post<CollabDocSummaryDto, AcceptCollabInviteBody>('/api/collab/invites/accept', { json: { token } }),
  history: (id: string) => api.get<CollabHistoryDto>(`${doc(id)}/history`),
  version: (id: string, version: number) => api.get<CollabVersionDto>(`${doc(id)}/versions/${version}`),
};

/** The link an invitation travels as: opening it signed in joins the document. */
export const inviteUrl = (origin: string, token: string): string => `${origin}/collaboration?invite=${encodeURIComponent(token)}`;
