import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import type { BudgetEvent, BudgetSnapshot } from '@scriptorium/backend/domain/budget/budget';
import type { UserEvent } from '@scriptorium/backend/domain/user/user';
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
  email_verified: boolean;
  created_at: string;
  /** The stored level (before any expiry is applied), for filtering. */
  level: BudgetSnapshot['level'];
  budget: BudgetSnapshot;
  updated_at: string;
}

export const ACCOUNTS = 'accounts';

const round = (value: number) => Math.round(value * 1e6) / 1e6;

const freshBudget = (): BudgetSnapshot => ({
  level: 'basic',
  membershipExpiresAt: null,
  tokenLevelLimit: 100,
  extraBudget: 0,
  day: null,
  usedToday: 0,
  allUsage: 0,
  lastRefreshAt: null,
});

/** The budget stream's own rules for these numbers (`evolveSnapshot` in the budget domain). */
function applyBudget(state: BudgetSnapshot, event: BudgetEvent): BudgetSnapshot {
  const budget = state.day === null ? { ...state, day: event.data.day } : state;
  switch (event.type) {
    case 'TokenLimitSet':
      return { ...budget, tokenLevelLimit: event.data.tokenLevelLimit };
    case 'ExtraBudgetAdded':
      return { ...budget, extraBudget: round(budget.extraBudget + event.data.amount) };
    case 'MembershipLevelSet':
      return { ...budget, level: event.data.level, membershipExpiresAt: event.data.membershipExpiresAt, tokenLevelLimit: event.data.tokenLevelLimit };
    case 'MembershipExpired':
      return { ...budget, level: 'basic', membershipExpiresAt: null, tokenLevelLimit: event.data.tokenLevelLimit };
    case 'BudgetDayClosed':
      return { ...budget, day: event.data.day, usedToday: 0, extraBudget: event.data.extraBudget, ...(event.data.refresh && { lastRefreshAt: event.data.at }) };
    case 'TokensCharged':
      return {
        ...budget,
        allUsage: round(budget.allUsage + event.data.coins),
        usedToday: event.data.day === budget.day ? round(budget.usedToday + event.data.coins) : budget.usedToday,
      };
    default:
      return budget;
  }
}

const USER_EVENTS = ['UserRegistered', 'UserProfileUpdated', 'AdminRoleGranted', 'EmailVerified', 'UserDeactivated', 'UserReactivated'] as const satisfies readonly UserEvent['type'][];
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
      const budget = applyBudget(account?.budget ?? freshBudget(), event);
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
            $setOnInsert: { level: 'basic', budget: freshBudget() },
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
