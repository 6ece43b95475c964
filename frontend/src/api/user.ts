import type { UserReply } from '@scriptorium/domain/protocol/http/auth';
/** The user as `GET /auth/me` answers (spec §3), as the route declares it. */
export type MeDto = UserReply;

/** The user as the client keeps it (spec §3): name and updated_at are derived, not sent. */
export interface ClientUser {
  id: string;
  username: string;
  name: string;
  /** What the user is called where they are greeted (the sidebar, their account); `name` stays the user name, as the spec has it. */
  nickname: string;
  email: string;
  created_at: string;
  updated_at: string;
  is_active: boolean;
  is_admin: boolean;
  is_auditor: boolean;
  email_verified: boolean;
}

export const toClientUser = (dto: MeDto): ClientUser => ({
  id: dto._id,
  username: dto.username,
  name: dto.username,
  nickname: dto.nickname?.trim() || dto.username,
  email: dto.email,
  created_at: dto.created_at,
  updated_at: dto.created_at,
  is_active: dto.is_active,
  is_admin: dto.is_admin,
  is_auditor: dto.is_auditor,
  email_verified: dto.email_verified,
});

