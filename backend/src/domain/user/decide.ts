import { assertNever, DomainError, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolve, initialState, type User, type UserEvent } from './user.ts';

export type RegisterUser = Command<
  'RegisterUser',
  { userId: string; username: string; email: string; nickname: string; passwordHash: string; isAdmin: boolean; inviteCode?: string; emailVerified?: boolean }
>;
export type UpdateProfile = Command<'UpdateProfile', { nickname?: string; email?: string }>;
export type ChangePassword = Command<'ChangePassword', { passwordHash: string }>;
export type GrantAdminRole = Command<'GrantAdminRole', Record<string, never>>;
/** Issued once the address's code checked out (see `emailVerification.ts`). */
export type VerifyEmail = Command<'VerifyEmail', { email: string }>;
export type SetActive = Command<'SetActive', { active: boolean; by: string }>;
export type RevokeToken = Command<'RevokeToken', { tokenHash: string; expiresAt: string }>;

export type UserCommand = RegisterUser | UpdateProfile | ChangePassword | GrantAdminRole | VerifyEmail | SetActive | RevokeToken;

const NOT_FOUND = '未找到用户信息';

export const registerUser = (command: RegisterUser, state: User): UserEvent => {
  if (state.status !== 'unregistered') throw new DomainError('conflict', '用户名已被注册', 'username');
  return { type: 'UserRegistered', data: { ...command.data, registeredAt: command.metadata.now.toISOString() } };
};

export const updateProfile = (command: UpdateProfile, state: User): UserEvent[] => {
  if (state.status === 'unregistered') throw new DomainError('not_found', NOT_FOUND);
  const { nickname, email } = command.data;
  const changes = {
    ...(nickname !== undefined && nickname !== state.nickname && { nickname }),
    ...(email !== undefined && email !== state.email && { email }),
  };
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'UserProfileUpdated', data: { userId: state.userId, ...changes, updatedAt: command.metadata.now.toISOString() } }];
};

export const changePassword = (command: ChangePassword, state: User): UserEvent => {
  if (state.status === 'unregistered') throw new DomainError('not_found', NOT_FOUND);
  return { type: 'UserPasswordChanged', data: { userId: state.userId, passwordHash: command.data.passwordHash, changedAt: command.metadata.now.toISOString() } };
};

export const grantAdminRole = (command: GrantAdminRole, state: User): UserEvent[] => {
  if (state.status === 'unregistered') throw new DomainError('not_found', NOT_FOUND);
  if (state.isAdmin) return [];
  return [{ type: 'AdminRoleGranted', data: { userId: state.userId, grantedAt: command.metadata.now.toISOString() } }];
};

export const verifyEmail = (command: VerifyEmail, state: User): UserEvent[] => {
  if (state.status === 'unregistered') throw new DomainError('not_found', NOT_FOUND);
  // The account moved to another address after the code was sent: the code proved the old one.
  if (command.data.email !== state.email) throw new DomainError('conflict', '该邮箱已不是此账户的邮箱');
  if (state.emailVerified) return [];
  return [{ type: 'EmailVerified', data: { userId: state.userId, email: state.email, verifiedAt: command.metadata.now.toISOString() } }];
};

export const setActive = (command: SetActive, state: User): UserEvent[] => {
  if (state.status === 'unregistered') throw new DomainError('not_found', NOT_FOUND);
  const { active, by } = command.data;
  const at = command.metadata.now.toISOString();
  if (active) return state.status === 'active' ? [] : [{ type: 'UserReactivated', data: { userId: state.userId, by, at } }];
  // An admin who switches themselves off can no longer switch anyone back on.
  if (by === state.userId) throw new DomainError('forbidden', '不能停用自己的账户');
  return state.status === 'deactivated' ? [] : [{ type: 'UserDeactivated', data: { userId: state.userId, by, at } }];
};

export const revokeToken = (command: RevokeToken, state: User): UserEvent => {
  if (state.status === 'unregistered') throw new DomainError('not_found', NOT_FOUND);
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
