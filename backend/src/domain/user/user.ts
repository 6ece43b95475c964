import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

export type UserRegistered = DomainEvent<
  'UserRegistered',
  { userId: string; username: string; email: string; nickname: string; passwordHash: string; isAdmin: boolean; registeredAt: string }
>;
export type UserProfileUpdated = DomainEvent<'UserProfileUpdated', { userId: string; nickname?: string; email?: string; updatedAt: string }>;
export type UserPasswordChanged = DomainEvent<'UserPasswordChanged', { userId: string; passwordHash: string; changedAt: string }>;
export type AdminRoleGranted = DomainEvent<'AdminRoleGranted', { userId: string; grantedAt: string }>;

export type UserEvent = UserRegistered | UserProfileUpdated | UserPasswordChanged | AdminRoleGranted;

export interface UserProfile {
  userId: string;
  username: string;
  email: string;
  nickname: string;
  passwordHash: string;
  isAdmin: boolean;
  emailVerified: boolean;
  createdAt: string;
  updatedAt: string;
}

export type User = { status: 'unregistered' } | ({ status: 'active' } & UserProfile);

export const initialState = (): User => ({ status: 'unregistered' });

export function evolve(state: User, event: UserEvent): User {
  switch (event.type) {
    case 'UserRegistered': {
      const { userId, username, email, nickname, passwordHash, isAdmin, registeredAt } = event.data;
      return {
        status: 'active',
        userId,
        username,
        email,
        nickname,
        passwordHash,
        isAdmin,
        emailVerified: false,
        createdAt: registeredAt,
        updatedAt: registeredAt,
      };
    }
    case 'UserProfileUpdated': {
      if (state.status === 'unregistered') return state;
      const { nickname, email, updatedAt } = event.data;
      const emailChanged = email !== undefined && email !== state.email;
      return {
        ...state,
        nickname: nickname ?? state.nickname,
        email: email ?? state.email,
        emailVerified: emailChanged ? false : state.emailVerified,
        updatedAt,
      };
    }
    case 'UserPasswordChanged':
      return state.status === 'unregistered' ? state : { ...state, passwordHash: event.data.passwordHash, updatedAt: event.data.changedAt };
    case 'AdminRoleGranted':
      return state.status === 'unregistered' ? state : { ...state, isAdmin: true, updatedAt: event.data.grantedAt };
    default:
      return assertNever(event);
  }
}
