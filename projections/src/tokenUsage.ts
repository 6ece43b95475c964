import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import { dayKey } from '@scriptorium/infra/time';
import type { TokensConsumed } from '@scriptorium/domain/conversation/conversation';
import { countOnce, type Projection } from './projection.ts';

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
  return {
    name: 'token_usage',
    collections: [DAILY_USAGE, USER_USAGE, SESSION_USAGE],
    handles: ['TokensConsumed'] satisfies TokensConsumed['type'][],
    async setup(store) {
      await store.collection(DAILY_USAGE).ensureIndex({ fields: { day: 1, user_id: 1 } });
      await store.collection(SESSION_USAGE).ensureIndex({ fields: { user_id: 1, updated_at: -1 } });
      await store.collection(SESSION_USAGE).ensureIndex({ fields: { updated_at: -1 } });
    },
    async apply(recorded: RecordedEvent, tx) {
      const { userId, sessionId, prompt, completion, model, at } = (recorded.data as TokensConsumed['data']);
      const day = dayKey(at, timeZone);
      const increment = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, calls: 1 };
      await countOnce(tx.collection(DAILY_USAGE), dailyUsageId(userId, day), recorded.position, { $inc: increment, $set: { user_id: userId, day, updated_at: at } }, { upsert: true });
      await countOnce(tx.collection(USER_USAGE), userId, recorded.position, { $inc: increment, $set: { last_day: day, updated_at: at } }, { upsert: true });
      if (sessionId === null) return;
      await countOnce(
        tx.collection(SESSION_USAGE),
        sessionId,
        recorded.position,
        { $inc: { ...increment, [`models.${model.replace(/[.$]/g, '_')}`]: prompt + completion }, $set: { user_id: userId, session_id: sessionId, updated_at: at } },
        { upsert: true },
      );
    },
  };
}
