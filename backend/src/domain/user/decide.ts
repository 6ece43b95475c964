import { assertNever, DomainError, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolve, initialState, type User, type UserEvent } from './user.ts';

export type RegisterUser = Command<
  'RegisterUser',
  { userId: string; username: string; email: string; nickname: string; passwordHash: string; isAdmin: boolean }
>;
export type UpdateProfile = Command<'UpdateProfile', { nickname?: string; email?: string }>;
export type ChangePassword = Command<'ChangePassword', { passwordHash: string }>;
export type GrantAdminRole = Command<'GrantAdminRole', Record<string, never>>;

export type UserCommand = RegisterUser | UpdateProfile | ChangePassword | GrantAdminRole;

export const registerUser = (command: RegisterUser, state: User): UserEvent => {
  if (state.status !== 'unregistered') throw new DomainError('conflict', '用户名已被注册', 'username');
  return { type: 'UserRegistered', data: { ...command.data, registeredAt: command.metadata.now.toISOString() } };
};

export const updateProfile = (command: UpdateProfile, state: User): UserEvent[] => {
  if (state.status === 'unregistered') throw new DomainError('not_found', '未找到用户信息');
  const { nickname, email } = command.data;
  const changes = {
    ...(nickname !== undefined && nickname !== state.nickname && { nickname }),
    ...(email !== undefined && email !== state.email && { email }),
  };
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'UserProfileUpdated', data: { userId: state.userId, ...changes, updatedAt: command.metadata.now.toISOString() } }];
};

export const changePassword = (command: ChangePassword, state: User): UserEvent => {
  if (state.status === 'unregistered') throw new DomainError('not_found', '未找到用户信息');
  return { type: 'UserPasswordChanged', data: { userId: state.userId, passwordHash: command.data.passwordHash, changedAt: command.metadata.now.toISOString() } };
};

export const grantAdminRole = (command: GrantAdminRole, state: User): UserEvent[] => {
  if (state.status === 'unregistered') throw new DomainError('not_found', '未找到用户信息');
  if (state.isAdmin) return [];
  return [{ type: 'AdminRoleGranted', data: { userId: state.userId, grantedAt: command.metadata.now.toISOString() } }];
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
    default:
      return assertNever(command);
  }
}

export const userDecider: Decider<User, UserCommand, UserEvent> = { initialState, evolve, decide };

export const userStream = (userId: string): string => `user-${userId}`;
