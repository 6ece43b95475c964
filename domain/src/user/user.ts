import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

export type UserRegistered = DomainEvent<
  'UserRegistered',
  {
    userId: string;
    username: string;
    email: string;
    nickname: string;
    passwordHash: string;
    isAdmin: boolean;
    registeredAt: string;
    /** The invite code the registration used, when it used one. */
    inviteCode?: string;
    /** True when the registration carried a valid e-mail code. */
    emailVerified?: boolean;
    /** Absent on users registered before names were compared by skeleton. */
    usernameKey?: string;
  }
>;
export type UserProfileUpdated = DomainEvent<'UserProfileUpdated', { userId: string; nickname?: string; email?: string; updatedAt: string }>;
/** Why a password changed: the user did (knowing the old one), with a mailed code, an administrator reset it, or the operator's ADMIN_PASSWORD set it at start. */
export type PasswordChangeReason = 'changed' | 'reset_by_code' | 'reset_by_admin' | 'configured';
/** Every sign-in made before `changedAt` ends, and its sockets close. `reason` and `by` are absent on changes made before resets existed. */
export type UserPasswordChanged = DomainEvent<'UserPasswordChanged', { userId: string; passwordHash: string; changedAt: string; reason?: PasswordChangeReason; by?: string }>;
export type AdminRoleGranted = DomainEvent<'AdminRoleGranted', { userId: string; grantedAt: string }>;
/** Auditors read any stream (each read is recorded on their audit stream); they change nothing. */
export type AuditorRoleGranted = DomainEvent<'AuditorRoleGranted', { userId: string; by: string; at: string }>;
export type AuditorRoleRevoked = DomainEvent<'AuditorRoleRevoked', { userId: string; by: string; at: string }>;
export type EmailVerified = DomainEvent<'EmailVerified', { userId: string; email: string; verifiedAt: string }>;
export type UserDeactivated = DomainEvent<'UserDeactivated', { userId: string; by: string; at: string }>;
export type UserReactivated = DomainEvent<'UserReactivated', { userId: string; by: string; at: string }>;
/** A logout: the token (by its hash) is refused until it would have expired anyway. */
export type AccessTokenRevoked = DomainEvent<'AccessTokenRevoked', { userId: string; tokenHash: string; expiresAt: string; at: string }>;

export type UserEvent =
  | UserRegistered
  | UserProfileUpdated
  | UserPasswordChanged
  | AdminRoleGranted
  | AuditorRoleGranted
  | AuditorRoleRevoked
  | EmailVerified
  | UserDeactivated
  | UserReactivated
  | AccessTokenRevoked;

export interface UserProfile {
  userId: string;
  username: string;
  email: string;
  nickname: string;
  passwordHash: string;
  isAdmin: boolean;
  isAuditor: boolean;
  emailVerified: boolean;
  createdAt: string;
  updatedAt: string;
}

/** `deactivated`: an admin switched the account off; it may sign in and read itself, nothing else. */
export type User = { status: 'unregistered' } | ({ status: 'active' } & UserProfile) | ({ status: 'deactivated' } & UserProfile);

export const initialState = (): User => ({ status: 'unregistered' });

export function evolve(state: User, event: UserEvent): User {
  if (event.type === 'UserRegistered') {
    const { userId, username, email, nickname, passwordHash, isAdmin, registeredAt, emailVerified } = event.data;
    return {
      status: 'active',
      userId,
      username,
      email,
      nickname,
      passwordHash,
      isAdmin,
      isAuditor: false,
      emailVerified: emailVerified ?? false,
      createdAt: registeredAt,
      updatedAt: registeredAt,
    };
  }
  if (state.status === 'unregistered') return state;
  switch (event.type) {
    case 'UserProfileUpdated': {
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
      return { ...state, passwordHash: event.data.passwordHash, updatedAt: event.data.changedAt };
    case 'AdminRoleGranted':
      return { ...state, isAdmin: true, updatedAt: event.data.grantedAt };
    case 'AuditorRoleGranted':
      return { ...state, isAuditor: true, updatedAt: event.data.at };
    case 'AuditorRoleRevoked':
      return { ...state, isAuditor: false, updatedAt: event.data.at };
    case 'EmailVerified':
      return event.data.email === state.email ? { ...state, emailVerified: true, updatedAt: event.data.verifiedAt } : state;
    case 'UserDeactivated':
      return { ...state, status: 'deactivated', updatedAt: event.data.at };
    case 'UserReactivated':
      return { ...state, status: 'active', updatedAt: event.data.at };
    case 'AccessTokenRevoked':
      return state;
    default:
      return assertNever(event);
  }
}
