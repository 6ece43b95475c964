import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc, ReadStoreTx } from '@scriptorium/infra/readstore/port';
import { dayKey } from '@scriptorium/infra/time';
import type { TokensConsumed } from '@scriptorium/domain/conversation/conversation';
import { DocumentBatch, type Projection } from './projection.ts';

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  calls: number;
  updated_at: string;
  /** The last call counted in: a batch replayed after a crash (standalone Mongo) does not count it again. */
  last_position: number;
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

interface Call {
  position: number;
  at: string;
  prompt: number;
  completion: number;
}

/** The document with one more call counted in, or undefined when it has counted this one already. */
function counted<T extends Doc & Usage>(doc: T | null, id: string, call: Call, fields: Omit<T, keyof Usage | '_id'>): T | undefined {
  if (doc !== null && call.position <= doc.last_position) return undefined;
  return {
    ...doc,
    _id: id,
    ...fields,
    prompt_tokens: (doc?.prompt_tokens ?? 0) + call.prompt,
    completion_tokens: (doc?.completion_tokens ?? 0) + call.completion,
    total_tokens: (doc?.total_tokens ?? 0) + call.prompt + call.completion,
    calls: (doc?.calls ?? 0) + 1,
    updated_at: call.at,
    last_position: call.position,
  } as T;
}

export function tokenUsageProjection(timeZone: string): Projection {
  /** Each usage document is read and written once per batch: a rebuild counts hundreds of calls into the same few. */
  async function applyUsage(batch: RecordedEvent[], tx: ReadStoreTx): Promise<void> {
    const daily = new DocumentBatch<DailyUsageDoc>(tx.collection(DAILY_USAGE));
    const users = new DocumentBatch<UserUsageDoc>(tx.collection(USER_USAGE));
    const sessions = new DocumentBatch<SessionUsageDoc>(tx.collection(SESSION_USAGE));
    for (const recorded of batch) {
      const { userId, sessionId, prompt, completion, model, at } = recorded.data as TokensConsumed['data'];
      const call: Call = { position: recorded.position, at, prompt, completion };
      const day = dayKey(at, timeZone);
      const dayId = dailyUsageId(userId, day);
      const today = counted(daily.peek(dayId) ?? (await daily.get(dayId)), dayId, call, { user_id: userId, day });
      if (today) daily.set(today);
      const user = counted(users.peek(userId) ?? (await users.get(userId)), userId, call, { last_day: day });
      if (user) users.set(user);
      if (sessionId === null) continue;
      const previous = sessions.peek(sessionId) ?? (await sessions.get(sessionId));
      const session = counted(previous, sessionId, call, { user_id: userId, session_id: sessionId, models: { ...previous?.models } });
      if (!session) continue;
      const key = model.replace(/[.$]/g, '_');
      session.models[key] = (session.models[key] ?? 0) + prompt + completion;
      sessions.set(session);
    }
    await daily.flush();
    await users.flush();
    await sessions.flush();
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
