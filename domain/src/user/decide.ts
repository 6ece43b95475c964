import { refuse } from '../refuse.ts';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolve, initialState, type PasswordChangeReason, type User, type UserEvent } from './user.ts';

export type RegisterUser = Command<
  'RegisterUser',
  {
    userId: string;
    username: string;
    email: string;
    nickname: string;
    passwordHash: string;
    isAdmin: boolean;
    inviteCode?: string;
    emailVerified?: boolean;
    /** The name's look-alike skeleton (see `username.ts`), kept on the user so later sign-ups compare against it. */
    usernameKey?: string;
    /** Another account whose name has the same skeleton, as the read model knows it when the command is issued. */
    lookAlikeHeldBy?: string;
  }
>;
export type UpdateProfile = Command<'UpdateProfile', { nickname?: string; email?: string }>;
/** `by`: the administrator who reset it. The caller has checked the old password or the mailed code. */
export type ChangePassword = Command<'ChangePassword', { passwordHash: string; reason: PasswordChangeReason; by?: string }>;
export type GrantAdminRole = Command<'GrantAdminRole', Record<string, never>>;
export type SetAuditor = Command<'SetAuditor', { auditor: boolean; by: string }>;
/** Issued once the address's code checked out (see `emailVerification.ts`). */
export type VerifyEmail = Command<'VerifyEmail', { email: string }>;
export type SetActive = Command<'SetActive', { active: boolean; by: string }>;
export type RevokeToken = Command<'RevokeToken', { tokenHash: string; expiresAt: string }>;

export type UserCommand = RegisterUser | UpdateProfile | ChangePassword | GrantAdminRole | SetAuditor | VerifyEmail | SetActive | RevokeToken;


export const registerUser = (command: RegisterUser, state: User): UserEvent => {
  const { lookAlikeHeldBy, ...data } = command.data;
  if (state.status !== 'unregistered' || (lookAlikeHeldBy !== undefined && lookAlikeHeldBy !== data.userId)) throw refuse('conflict', 'auth.username_taken', {}, 'username');
  return { type: 'UserRegistered', data: { ...data, registeredAt: command.metadata.now.toISOString() } };
};

export const updateProfile = (command: UpdateProfile, state: User): UserEvent[] => {
  if (state.status === 'unregistered') throw refuse('not_found', 'user.not_found');
  const { nickname, email } = command.data;
  const changes = {
    ...(nickname !== undefined && nickname !== state.nickname && { nickname }),
    ...(email !== undefined && email !== state.email && { email }),
  };
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'UserProfileUpdated', data: { userId: state.userId, ...changes, updatedAt: command.metadata.now.toISOString() } }];
};

export const changePassword = (command: ChangePassword, state: User): UserEvent => {
  if (state.status === 'unregistered') throw refuse('not_found', 'user.not_found');
  const { passwordHash, reason, by } = command.data;
  // A switched-off account gets back in only through an administrator.
  if (state.status === 'deactivated' && reason !== 'reset_by_admin' && reason !== 'configured') throw refuse('forbidden', 'auth.account_inactive');
  return { type: 'UserPasswordChanged', data: { userId: state.userId, passwordHash, changedAt: command.metadata.now.toISOString(), reason, ...(by !== undefined && { by }) } };
};

export const grantAdminRole = (command: GrantAdminRole, state: User): UserEvent[] => {
  if (state.status === 'unregistered') throw refuse('not_found', 'user.not_found');
  if (state.isAdmin) return [];
  return [{ type: 'AdminRoleGranted', data: { userId: state.userId, grantedAt: command.metadata.now.toISOString() } }];
};

export const setAuditor = (command: SetAuditor, state: User): UserEvent[] => {
  if (state.status === 'unregistered') throw refuse('not_found', 'user.not_found');
  const { auditor, by } = command.data;
  if (auditor === state.isAuditor) return [];
  const data = { userId: state.userId, by, at: command.metadata.now.toISOString() };
  return [auditor ? { type: 'AuditorRoleGranted', data } : { type: 'AuditorRoleRevoked', data }];
};

export const verifyEmail = (command: VerifyEmail, state: User): UserEvent[] => {
  if (state.status === 'unregistered') throw refuse('not_found', 'user.not_found');
  // The account moved to another address after the code was sent: the code proved the old one.
  if (command.data.email !== state.email) throw refuse('conflict', 'auth.email_changed');
  if (state.emailVerified) return [];
  return [{ type: 'EmailVerified', data: { userId: state.userId, email: state.email, verifiedAt: command.metadata.now.toISOString() } }];
};

export const setActive = (command: SetActive, state: User): UserEvent[] => {
  if (state.status === 'unregistered') throw refuse('not_found', 'user.not_found');
  const { active, by } = command.data;
  const at = command.metadata.now.toISOString();
  if (active) return state.status === 'active' ? [] : [{ type: 'UserReactivated', data: { userId: state.userId, by, at } }];
  // An admin who switches themselves off can no longer switch anyone back on.
  if (by === state.userId) throw refuse('forbidden', 'user.cannot_deactivate_self');
  return state.status === 'deactivated' ? [] : [{ type: 'UserDeactivated', data: { userId: state.userId, by, at } }];
};

export const revokeToken = (command: RevokeToken, state: User): UserEvent => {
  if (state.status === 'unregistered') throw refuse('not_found', 'user.not_found');
  return { type: 'AccessTokenRevoked', data: { userId: state.userId, ...command.data, at: command.metadata.now.toISOString() } };
};

export function decide(command: UserCommand, state: User): UserEvent | UserEvent[] {
  switch (command.type) {
    case 'RegisterUser':
      return registerUser(command, state);
    case 'UpdateProfile':
      return updateProfile(command, state);
    case 'ChangePassword':
      return changePassword(command, state);
    case 'GrantAdminRole':
      return grantAdminRole(command, state);
    case 'SetAuditor':
      return setAuditor(command, state);
    case 'VerifyEmail':
      return verifyEmail(command, state);
    case 'SetActive':
      return setActive(command, state);
    case 'RevokeToken':
      return revokeToken(command, state);
    default:
      return assertNever(command);
  }
}

export const userDecider: Decider<User, UserCommand, UserEvent> = { initialState, evolve, decide };

export const userStream = (userId: string): string => `user-${userId}`;
