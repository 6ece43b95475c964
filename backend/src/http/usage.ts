import Router from '@koa/router';
import { dayKey } from '@scriptorium/infra/time';
import { ACCOUNTS, type AccountDoc } from '@scriptorium/projections/accounts';
import { CHATS, type ChatDoc } from '@scriptorium/projections/chats';
import { DAILY_USAGE, dailyUsageId, SESSION_USAGE, USER_USAGE, type DailyUsageDoc, type SessionUsageDoc, type UserUsageDoc } from '@scriptorium/projections/tokenUsage';
import { tokenInfo } from '@scriptorium/domain/budget/view';
import type { Services } from '../services.ts';
import { requireAdmin, requireUser } from './authenticate.ts';
import { httpError } from './errors.ts';
import { parseQuery } from './validate.ts';
import { usersById } from './usersById.ts';
import { contract } from './contract.ts';
import { allTokenUsage, sessionsTokenUsage, usagePageQuery, userRow, userUsage } from '@scriptorium/domain/protocol/http/admin';

const counts = (doc: Partial<DailyUsageDoc> | null) => ({
  prompt_tokens: doc?.prompt_tokens ?? 0,
  completion_tokens: doc?.completion_tokens ?? 0,
  total_tokens: doc?.total_tokens ?? 0,
  calls: doc?.calls ?? 0,
});

/** Reads over the budget and usage read models, shared by the user's and the admin's routes. */
export class UsageQueries {
  constructor(private readonly services: Services) {}

  private settings() {
    return { timeZone: this.services.config.TIME_ZONE, tokensPerCoin: this.services.config.TOKENS_PER_COIN };
  }

  async account(userId: string): Promise<AccountDoc> {
    const account = await this.services.readStore.collection<AccountDoc>(ACCOUNTS).get(userId);
    if (!account) throw httpError(404, 'user.not_found');
    return account;
  }

  /** The account row the admin console shows: who, whether active, and the budget as of now. */
  row(account: AccountDoc) {
    return {
      _id: account._id,
      id: account._id,
      user_id: account._id,
      username: account.username,
      email: account.email,
      nickname: account.nickname,
      is_active: account.is_active,
      is_admin: account.is_admin,
      is_auditor: account.is_auditor ?? false,
      email_verified: account.email_verified,
      created_at: account.created_at,
      ...tokenInfo(account.budget, account._id, this.services.clock(), this.settings()),
    };
  }

  async tokenInfo(userId: string) {
    return this.row(await this.account(userId));
  }

  private async title(sessionId: string): Promise<string | null> {
    const chat = await this.services.readStore.collection<ChatDoc>(CHATS).get(sessionId);
    return chat ? (chat.title ?? chat.name) : null;
  }

  async session(doc: SessionUsageDoc) {
    return { session_id: doc.session_id, user_id: doc.user_id, title: await this.title(doc.session_id), ...counts(doc), models: doc.models, updated_at: doc.updated_at };
  }

  /** One user's token usage: today, all time, the last 30 days and the newest sessions. */
  async usage(userId: string) {
    const store = this.services.readStore;
    const today = dayKey(this.services.clock(), this.services.config.TIME_ZONE);
    const [todayDoc, total, daily, sessions] = await Promise.all([
      store.collection<DailyUsageDoc>(DAILY_USAGE).get(dailyUsageId(userId, today)),
      store.collection<UserUsageDoc>(USER_USAGE).get(userId),
      store.collection<DailyUsageDoc>(DAILY_USAGE).find({ user_id: userId }, { sort: { day: -1 }, limit: 30 }),
      store.collection<SessionUsageDoc>(SESSION_USAGE).find({ user_id: userId }, { sort: { updated_at: -1 }, limit: 100 }),
    ]);
    return {
      user_id: userId,
      today: { day: today, ...counts(todayDoc) },
      all_time: counts(total),
      daily: daily.map((doc) => ({ day: doc.day, ...counts(doc) })),
      sessions: await Promise.all(sessions.map((doc) => this.session(doc))),
      tokens_per_coin: this.services.config.TOKENS_PER_COIN,
    };
  }
}

/** A user's own budget and usage, and the admin's views over everyone's usage. */
export function usageRoutes(services: Services): Router {
  const router = new Router();
  const queries = new UsageQueries(services);

  router.get('/auth/user/token-info', contract({ access: 'user', responses: { 200: userRow } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    ctx.body = await queries.tokenInfo(user.id);
  });

  const ownUsage = async (ctx: Parameters<typeof requireUser>[1]) => {
    const user = await requireUser(services, ctx);
    ctx.body = await queries.usage(user.id);
  };
  router.get('/auth/user/token-usage', contract({ access: 'user', responses: { 200: userUsage } }), ownUsage);
  router.get('/conversation/api/user/token-usage', contract({ access: 'user', responses: { 200: userUsage } }), ownUsage);

  router.get('/conversation/api/admin/token-usage', contract({ access: 'admin', query: usagePageQuery, responses: { 200: allTokenUsage } }), async (ctx) => {
    await requireAdmin(services, ctx);
    const query = parseQuery(ctx, usagePageQuery);
    const usage = services.readStore.collection<UserUsageDoc>(USER_USAGE);
    const accounts = services.readStore.collection<AccountDoc>(ACCOUNTS);
    const [docs, total] = await Promise.all([usage.find({}, { sort: { total_tokens: -1 }, skip: query.skip, limit: query.limit }), usage.count()]);
    const users = await Promise.all(
      docs.map(async (doc) => {
        const account = await accounts.get(doc._id);
        return { user_id: doc._id, username: account?.username ?? null, ...counts(doc), last_day: doc.last_day, updated_at: doc.updated_at };
      }),
    );
    ctx.body = { users, total, skip: query.skip, limit: query.limit };
  });

  router.get('/conversation/api/admin/sessions-token-usage', contract({ access: 'admin', query: usagePageQuery, responses: { 200: sessionsTokenUsage } }), async (ctx) => {
    await requireAdmin(services, ctx);
    const query = parseQuery(ctx, usagePageQuery);
    const sessions = services.readStore.collection<SessionUsageDoc>(SESSION_USAGE);
    const [docs, total] = await Promise.all([sessions.find({}, { sort: { updated_at: -1 }, skip: query.skip, limit: query.limit }), sessions.count()]);
    const users = await usersById(services.readStore, docs.map((doc) => doc.user_id));
    ctx.body = {
      sessions: await Promise.all(docs.map(async (doc) => ({ ...(await queries.session(doc)), username: users.get(doc.user_id)?.username ?? null }))),
      total,
      skip: query.skip,
      limit: query.limit,
    };
  });

  return router;
}
