import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import { evolveSnapshot, initialSnapshot, type BudgetEvent, type BudgetSnapshot } from '@scriptorium/domain/budget/budget';
import type { UserEvent } from '@scriptorium/domain/user/user';
import type { Projection } from './projection.ts';

/**
 * One row per account for the admin console and the token overview: who the user is, and their
 * budget as the budget stream last recorded it. Readers bring `budget` up to the present
 * (a day that ended, a membership that expired) with the budget domain's `tokenInfo`.
 */
export interface AccountDoc extends Doc {
  username: string;
  username_lower: string;
  email: string;
  nickname: string;
  is_active: boolean;
  is_admin: boolean;
  is_auditor?: boolean;
  email_verified: boolean;
  created_at: string;
  /** The stored level (before any expiry is applied), for filtering. */
  level: BudgetSnapshot['level'];
  budget: BudgetSnapshot;
  updated_at: string;
}

export const ACCOUNTS = 'accounts';

const USER_EVENTS = ['UserRegistered', 'UserProfileUpdated', 'AdminRoleGranted', 'AuditorRoleGranted', 'AuditorRoleRevoked', 'EmailVerified', 'UserDeactivated', 'UserReactivated'] as const satisfies readonly UserEvent['type'][];
const BUDGET_EVENTS = ['TokenLimitSet', 'ExtraBudgetAdded', 'MembershipLevelSet', 'MembershipExpired', 'BudgetDayClosed', 'TokensCharged'] as const satisfies readonly BudgetEvent['type'][];

export const accountsProjection: Projection = {
  name: 'accounts',
  collections: [ACCOUNTS],
  handles: [...USER_EVENTS, ...BUDGET_EVENTS],
  async setup(store) {
    const accounts = store.collection(ACCOUNTS);
    await accounts.ensureIndex({ fields: { username_lower: 1 } });
    await accounts.ensureIndex({ fields: { email: 1 } });
    await accounts.ensureIndex({ fields: { level: 1, username_lower: 1 } });
    await accounts.ensureIndex({ fields: { is_active: 1, username_lower: 1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const accounts = tx.collection<AccountDoc>(ACCOUNTS);
    const at = recorded.metadata.at;
    if ((BUDGET_EVENTS as readonly string[]).includes(recorded.type)) {
      const event = { type: recorded.type, data: recorded.data } as BudgetEvent;
      const account = await accounts.get(event.data.userId);
      const budget = evolveSnapshot(account?.budget ?? initialSnapshot(), event);
      await accounts.update(event.data.userId, { $set: { budget, level: budget.level, updated_at: at } }, { upsert: true });
      return;
    }
    const event = { type: recorded.type, data: recorded.data } as UserEvent;
    switch (event.type) {
      case 'UserRegistered': {
        const { userId, username, email, nickname, isAdmin, registeredAt, emailVerified } = event.data;
        await accounts.update(
          userId,
          {
            $set: { username, username_lower: username.toLowerCase(), email, nickname, is_active: true, is_admin: isAdmin, email_verified: emailVerified ?? false, created_at: registeredAt, updated_at: at },
            $setOnInsert: { level: 'basic', budget: initialSnapshot() },
          },
          { upsert: true },
        );
        return;
      }
      case 'UserProfileUpdated': {
        const { userId, nickname, email } = event.data;
        await accounts.update(userId, { $set: { updated_at: at, ...(nickname !== undefined && { nickname }), ...(email !== undefined && { email, email_verified: false }) } });
        return;
      }
      case 'AdminRoleGranted':
        await accounts.update(event.data.userId, { $set: { is_admin: true, updated_at: at } });
        return;
      case 'AuditorRoleGranted':
      case 'AuditorRoleRevoked':
        await accounts.update(event.data.userId, { $set: { is_auditor: event.type === 'AuditorRoleGranted', updated_at: at } });
        return;
      case 'EmailVerified': {
        const account = await accounts.get(event.data.userId);
        if (account?.email === event.data.email) await accounts.update(event.data.userId, { $set: { email_verified: true, updated_at: at } });
        return;
      }
      case 'UserDeactivated':
      case 'UserReactivated':
        await accounts.update(event.data.userId, { $set: { is_active: event.type === 'UserReactivated', updated_at: at } });
        return;
      default:
        return;
    }
  },
};
