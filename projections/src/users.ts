import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import type { UserEvent } from '@scriptorium/backend/domain/user/user';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { Projection } from './projection.ts';

/** The account list: what /auth/me, the admin console and look-ups by name read. */
export interface UserDoc extends Doc {
  username: string;
  username_lower: string;
  email: string;
  nickname: string;
  created_at: string;
  updated_at: string;
  is_active: boolean;
  is_admin: boolean;
  email_verified: boolean;
}

export const USERS = 'users';

export const usersProjection: Projection = {
  name: 'users',
  collections: [USERS],
  handles: ['UserRegistered', 'UserProfileUpdated', 'UserPasswordChanged', 'AdminRoleGranted'] satisfies UserEvent['type'][],
  async setup(store) {
    await store.collection(USERS).ensureIndex({ fields: { username_lower: 1 }, unique: true });
    await store.collection(USERS).ensureIndex({ fields: { created_at: -1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const users = tx.collection<UserDoc>(USERS);
    const event = { type: recorded.type, data: recorded.data } as UserEvent;
    switch (event.type) {
      case 'UserRegistered': {
        const { userId, username, email, nickname, isAdmin, registeredAt } = event.data;
        await users.put({
          _id: userId,
          username,
          username_lower: username.toLowerCase(),
          email,
          nickname,
          created_at: registeredAt,
          updated_at: registeredAt,
          is_active: true,
          is_admin: isAdmin,
          email_verified: false,
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
        await users.update(event.data.userId, { $set: { updated_at: event.data.changedAt } });
        return;
      case 'AdminRoleGranted':
        await users.update(event.data.userId, { $set: { is_admin: true, updated_at: event.data.grantedAt } });
        return;
      default:
        assertNever(event);
    }
  },
};
