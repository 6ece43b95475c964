import Router from '@koa/router';
import { dayKey } from '@scriptorium/infra/time';
import { PAGE_VIEWS, VISITORS, type PageViewsDoc } from '@scriptorium/projections/activity';
import { CHATS } from '@scriptorium/projections/chats';
import { COGNITIONS } from '@scriptorium/projections/cognitions';
import { NOTES } from '@scriptorium/projections/notes';
import { SHARES } from '@scriptorium/projections/shares';
import { DAILY_USAGE, type DailyUsageDoc } from '@scriptorium/projections/tokenUsage';
import { TRAJECTORIES } from '@scriptorium/projections/trajectories';
import { USERS } from '@scriptorium/projections/users';
import type { Filter } from '@scriptorium/infra/readstore/port';
import type { Services } from '../services.ts';
import { requireAdmin } from './authenticate.ts';
import { contract } from './contract.ts';
import { dashboard } from '@scriptorium/domain/protocol/http/admin';

/** Days in the usage series, today included. */
export const SERIES_DAYS = 14;

/** The days of the series, oldest first, as `dayKey` writes them in the configured time zone. */
export function seriesDays(now: Date, timeZone: string, days = SERIES_DAYS): string[] {
  const keys = new Set<string>();
  // Stepping by hours, not days, keeps every calendar day even across a daylight-saving change.
  for (let hours = 0; keys.size < days; hours += 6) keys.add(dayKey(new Date(now.getTime() - hours * 3_600_000), timeZone));
  return [...keys].slice(0, days).reverse();
}

/** The statistics dashboard: counts from the read models, tokens per day for the last two weeks. */
export function dashboardRoutes(services: Services): Router {
  const router = new Router();
  const count = (collection: string, filter: Filter = {}) => services.readStore.collection(collection).count(filter);
  /** Conversation links that still open: a revoked or expired one shares nothing any more. */
  const openConversationShares = async (now: Date) => {
    const live: Filter = { kind: { $ne: 'artifact' }, revoked: false };
    const [never, later] = await Promise.all([count(SHARES, { ...live, expires_at: null }), count(SHARES, { ...live, expires_at: { $gt: now.toISOString() } })]);
    return never + later;
  };

  router.get('/auth/admin/dashboard', contract({ access: 'admin', responses: { 200: dashboard } }), async (ctx) => {
    await requireAdmin(services, ctx);
    const now = services.clock();
    const days = seriesDays(now, services.config.TIME_ZONE);
    const weekAgo = new Date(now.getTime() - 7 * 86_400_000).toISOString();
    const dayAgo = new Date(now.getTime() - 86_400_000).toISOString();
    const today = days.at(-1)!;
    const [users, active, verified, admins, newDay, newWeek, conversations, conversationsWeek, notes, cognitions, publicCognitions, trajectories, shares, usage, views, visitors] = await Promise.all([
      count(USERS),
      count(USERS, { is_active: true }),
      count(USERS, { email_verified: true }),
      count(USERS, { is_admin: true }),
      count(USERS, { created_at: { $gte: dayAgo } }),
      count(USERS, { created_at: { $gte: weekAgo } }),
      count(CHATS),
      count(CHATS, { created_at: { $gte: weekAgo } }),
      count(NOTES),
      count(COGNITIONS),
      count(COGNITIONS, { public: true }),
      count(TRAJECTORIES),
      openConversationShares(now),
      services.readStore.collection<DailyUsageDoc>(DAILY_USAGE).find({ day: { $gte: days[0]! } }),
      services.readStore.collection<PageViewsDoc>(PAGE_VIEWS).get(today),
      count(VISITORS, { day: today }),
    ]);
    const series = days.map((day) => {
      const rows = usage.filter((row) => row.day === day);
      return { day, total_tokens: rows.reduce((sum, row) => sum + row.total_tokens, 0), calls: rows.reduce((sum, row) => sum + row.calls, 0), users: rows.length };
    });
    const usageToday = series.at(-1)!;
    ctx.body = {
      generated_at: now.toISOString(),
      users: { total: users, active, verified, admins, new_24h: newDay, new_7d: newWeek },
      conversations: { total: conversations, new_7d: conversationsWeek, shared: shares },
      content: { notes, cognitions, public_cognitions: publicCognitions, trajectories },
      activity: { page_views_today: views?.views ?? 0, visitors_today: visitors, pages_today: views?.pages ?? {} },
      tokens: { today: usageToday.total_tokens, active_users_today: usageToday.users, last_7d: series.slice(-7).reduce((sum, row) => sum + row.total_tokens, 0), series },
    };
  });

  return router;
}
