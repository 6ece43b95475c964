import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc, ReadStoreTx } from '@scriptorium/infra/readstore/port';
import { dayKey } from '@scriptorium/infra/time';
import type { TokensConsumed } from '@scriptorium/domain/conversation/conversation';
import { BatchCounter, type Projection } from './projection.ts';

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  calls: number;
  updated_at: string;
}

/** Usage of one user on one day (in the configured time zone): what daily budgets are checked against. */
export interface DailyUsageDoc extends Doc, Usage {
  user_id: string;
  day: string;
}

/** All-time usage per user and per session, for the user's statistics and the admin overview. */
export interface UserUsageDoc extends Doc, Usage {
  last_day: string;
}
export interface SessionUsageDoc extends Doc, Usage {
  user_id: string;
  session_id: string;
  models: Record<string, number>;
}

export const DAILY_USAGE = 'token_usage_daily';
export const USER_USAGE = 'token_usage_users';
export const SESSION_USAGE = 'token_usage_sessions';

export const dailyUsageId = (userId: string, day: string): string => `${userId}:${day}`;

export function tokenUsageProjection(timeZone: string): Projection {
  /** Each usage document is read and written once per batch: a rebuild counts hundreds of calls into the same few. */
  async function applyUsage(batch: RecordedEvent[], tx: ReadStoreTx): Promise<void> {
    const daily = new BatchCounter(tx.collection(DAILY_USAGE));
    const users = new BatchCounter(tx.collection(USER_USAGE));
    const sessions = new BatchCounter(tx.collection(SESSION_USAGE));
    for (const recorded of batch) {
      const { userId, sessionId, prompt, completion, model, at } = recorded.data as TokensConsumed['data'];
      const day = dayKey(at, timeZone);
      const increment = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, calls: 1 };
      await daily.count(dailyUsageId(userId, day), recorded.position, { $inc: increment, $set: { user_id: userId, day, updated_at: at } }, { upsert: true });
      await users.count(userId, recorded.position, { $inc: increment, $set: { last_day: day, updated_at: at } }, { upsert: true });
      if (sessionId === null) continue;
      await sessions.count(
        sessionId,
        recorded.position,
        { $inc: { ...increment, [`models.${model.replace(/[.$]/g, '_')}`]: prompt + completion }, $set: { user_id: userId, session_id: sessionId, updated_at: at } },
        { upsert: true },
      );
    }
    for (const counter of [daily, users, sessions]) await counter.flush();
  }

  return {
    name: 'token_usage',
    collections: [DAILY_USAGE, USER_USAGE, SESSION_USAGE],
    handles: ['TokensConsumed'] satisfies TokensConsumed['type'][],
    async setup(store) {
      await store.collection(DAILY_USAGE).ensureIndex({ fields: { day: 1, user_id: 1 } });
      await store.collection(SESSION_USAGE).ensureIndex({ fields: { user_id: 1, updated_at: -1 } });
      await store.collection(SESSION_USAGE).ensureIndex({ fields: { updated_at: -1 } });
    },
    apply(recorded: RecordedEvent, tx) {
      return applyUsage([recorded], tx);
    },
    applyBatch: applyUsage,
  };
}
