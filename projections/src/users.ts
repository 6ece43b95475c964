import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import type { UserEvent } from '@scriptorium/domain/user/user';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import { usernameSkeleton } from '@scriptorium/domain/protocol/username';
import type { Projection } from './projection.ts';

/** The account list: what /auth/me, the admin console and look-ups by name read. */
export interface UserDoc extends Doc {
  username: string;
  username_lower: string;
  /** The look-alike skeleton of the name (see the backend's `username.ts`). */
  username_key: string;
  email: string;
  nickname: string;
  created_at: string;
  updated_at: string;
  is_active: boolean;
  is_admin: boolean;
  /** Reads any stream at /audit; set and unset by admins (missing on documents built before the role). */
  is_auditor?: boolean;
  email_verified: boolean;
  invite_code: string | null;
  /** Tokens issued before this no longer sign the user in (missing until the first change). */
  password_changed_at?: string;
}

/** Tokens given back by a logout, until they would have expired anyway. */
export interface RevokedTokenDoc extends Doc {
  user_id: string;
  expires_at: string;
}

export const USERS = 'users';
export const REVOKED_TOKENS = 'revoked_tokens';

export const usersProjection: Projection = {
  name: 'users',
  collections: [USERS, REVOKED_TOKENS],
  handles: [
    'UserRegistered',
    'UserProfileUpdated',
    'UserPasswordChanged',
    'AdminRoleGranted',
    'AuditorRoleGranted',
    'AuditorRoleRevoked',
    'EmailVerified',
    'UserDeactivated',
    'UserReactivated',
    'AccessTokenRevoked',
  ] satisfies UserEvent['type'][],
  async setup(store) {
    await store.collection(USERS).ensureIndex({ fields: { username_lower: 1 }, unique: true });
    await store.collection(USERS).ensureIndex({ fields: { username_key: 1 } });
    await store.collection(USERS).ensureIndex({ fields: { created_at: -1 } });
    await store.collection(USERS).ensureIndex({ fields: { is_admin: 1 } });
    await store.collection(REVOKED_TOKENS).ensureIndex({ fields: { expires_at: 1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const users = tx.collection<UserDoc>(USERS);
    const event = { type: recorded.type, data: recorded.data } as UserEvent;
    switch (event.type) {
      case 'UserRegistered': {
        const { userId, username, email, nickname, isAdmin, registeredAt, inviteCode, emailVerified, usernameKey } = event.data;
        await users.put({
          _id: userId,
          username,
          username_lower: username.toLowerCase(),
          username_key: usernameKey ?? usernameSkeleton(username),
          email,
          nickname,
          created_at: registeredAt,
          updated_at: registeredAt,
          is_active: true,
          is_admin: isAdmin,
          is_auditor: false,
          email_verified: emailVerified ?? false,
          invite_code: inviteCode ?? null,
        });
        return;
      }
      case 'UserProfileUpdated': {
        const { userId, nickname, email, updatedAt } = event.data;
        await users.update(userId, {
          $set: { updated_at: updatedAt, ...(nickname !== undefined && { nickname }), ...(email !== undefined && { email, email_verified: false }) },
        });
        return;
      }
      case 'UserPasswordChanged':
        await users.update(event.data.userId, { $set: { updated_at: event.data.changedAt, password_changed_at: event.data.changedAt } });
        return;
      case 'AdminRoleGranted':
        await users.update(event.data.userId, { $set: { is_admin: true, updated_at: event.data.grantedAt } });
        return;
      case 'AuditorRoleGranted':
      case 'AuditorRoleRevoked':
        await users.update(event.data.userId, { $set: { is_auditor: event.type === 'AuditorRoleGranted', updated_at: event.data.at } });
        return;
      case 'EmailVerified': {
        const user = await users.get(event.data.userId);
        if (user?.email === event.data.email) await users.update(event.data.userId, { $set: { email_verified: true, updated_at: event.data.verifiedAt } });
        return;
      }
      case 'UserDeactivated':
      case 'UserReactivated':
        await users.update(event.data.userId, { $set: { is_active: event.type === 'UserReactivated', updated_at: event.data.at } });
        return;
      case 'AccessTokenRevoked': {
        const revoked = tx.collection<RevokedTokenDoc>(REVOKED_TOKENS);
        await revoked.deleteMany({ expires_at: { $lt: event.data.at } });
        await revoked.put({ _id: event.data.tokenHash, user_id: event.data.userId, expires_at: event.data.expiresAt });
        return;
      }
      default:
        assertNever(event);
    }
  },
};
