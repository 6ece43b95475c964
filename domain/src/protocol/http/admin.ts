import { z } from 'zod';
import { DAILY_LIMIT_CHOICES, LEVELS } from '../levels.ts';
import { password } from './auth.ts';
import { FEEDBACK_TYPES } from '../limits.ts';
import { paging, queryFlag } from './query.ts';

/**
 * The administrators' console requests and replies (`/backend/auth/admin…`) and the token usage views
 * (`…/token-info`, `…/token-usage`); see `oauth.ts` for how they are shared.
 */

/** A user's budget as of now, amounts in cognition coins (GET /auth/user/token-info; part of every admin user row). */
export const tokenInfo = z.object({
  token_level_limit: z.number(),
  today_usage: z.number(),
  extra_budget: z.number(),
  total_available: z.number(),
  /** What is left today, in tokens: total_available at the configured rate. */
  token_remaining: z.number().int(),
  user_level: z.enum(LEVELS),
  all_usage: z.number(),
  /** When today's quota last started again: local midnight, or an admin's refresh after it. */
  last_refresh_date: z.string(),
  membership_expires_at: z.string().nullable(),
  tokens_per_coin: z.number(),
  /** The zone whose days the quota counts, so a client shows the quota's day, not its own. */
  time_zone: z.string(),
});

/** A user row of the admin calls: the account and its token info as of now. */
export const userRow = tokenInfo.extend({
  _id: z.string(),
  id: z.string(),
  user_id: z.string(),
  username: z.string(),
  email: z.string(),
  nickname: z.string(),
  is_active: z.boolean(),
  is_admin: z.boolean(),
  is_auditor: z.boolean(),
  email_verified: z.boolean(),
  created_at: z.string(),
});

const page = { total: z.number().int(), skip: z.number().int(), limit: z.number().int() };

export const userRows = z.object({ users: z.array(userRow), ...page });
export const tokenOverview = userRows.extend({ page_today_usage: z.number(), page_all_usage: z.number() });
/** A batch change: how many users it changed, and their rows after it. */
export const batchResult = z.object({ updated: z.number().int(), users: z.array(userRow) });
export const passwordReset = z.object({ id: z.string(), password_reset: z.literal(true) });

export const tokenCounts = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int(), calls: z.number().int() });
export const sessionTokens = tokenCounts.extend({ session_id: z.string(), user_id: z.string(), title: z.string().nullable(), models: z.record(z.string(), z.number()), updated_at: z.string() });
/** One user's token usage: today, all time, the last 30 days and the newest sessions. */
export const userUsage = z.object({
  /** The rate the amounts in coins are counted at. */
  tokens_per_coin: z.number(),
  user_id: z.string(),
  today: tokenCounts.extend({ day: z.string() }),
  all_time: tokenCounts,
  daily: z.array(tokenCounts.extend({ day: z.string() })),
  sessions: z.array(sessionTokens),
});
export const adminUserUsage = userUsage.extend({ username: z.string() });
export const allTokenUsage = z.object({ users: z.array(tokenCounts.extend({ user_id: z.string(), username: z.string().nullable(), last_day: z.string(), updated_at: z.string() })), ...page });
export const sessionsTokenUsage = z.object({ sessions: z.array(sessionTokens.extend({ username: z.string().nullable() })), ...page });

export const inviteCode = z.object({
  code: z.string(),
  status: z.enum(['unused', 'used', 'revoked']),
  is_used: z.boolean(),
  created_by: z.string(),
  created_at: z.string(),
  used_by: z.string().nullable(),
  used_by_username: z.string().nullable(),
  used_at: z.string().nullable(),
});
export const invitesGenerated = z.object({ invite_codes: z.array(inviteCode), count: z.number().int() });
export const inviteCodes = z.object({ invite_codes: z.array(inviteCode), ...page, status: z.enum(['all', 'unused', 'used', 'revoked']) });

export const adminMailSent = z.object({ message: z.string(), to_email: z.string() });

export const feedbackItem = z.object({
  id: z.string(),
  user_id: z.string(),
  username: z.string(),
  email: z.string(),
  feedback_type: z.enum(['bug', 'feature', 'general']),
  feedback_text: z.string(),
  created_at: z.string(),
});
export const feedbackPage = z.object({ feedback: z.array(feedbackItem), ...page });

export const outboxMail = z.object({ id: z.string(), from: z.string(), to: z.array(z.string()), subject: z.string(), text: z.string(), created_at: z.string() });
/** `transport`: where mail goes now (an SMTP server, or only this outbox). */
export const outboxPage = z.object({ transport: z.enum(['smtp', 'outbox']), mails: z.array(outboxMail), ...page });

export const auditRead = z.object({
  id: z.string(),
  auditor_id: z.string(),
  auditor: z.string(),
  stream_id: z.string(),
  action: z.enum(['events', 'export', 'search']),
  after: z.number().int().nullable(),
  count: z.number().int().nullable(),
  at: z.string(),
  position: z.number().int(),
});
export const auditReads = z.object({ reads: z.array(auditRead), ...page });

export type TokenInfo = z.infer<typeof tokenInfo>;
export type UserRow = z.infer<typeof userRow>;
export type UserRows = z.infer<typeof userRows>;
export type TokenOverview = z.infer<typeof tokenOverview>;
export type BatchResult = z.infer<typeof batchResult>;
export type PasswordReset = z.infer<typeof passwordReset>;
export type Counts = z.infer<typeof tokenCounts>;
export type SessionTokens = z.infer<typeof sessionTokens> & { username?: string | null };
export type UserUsage = z.infer<typeof userUsage>;
export type AdminUserUsage = z.infer<typeof adminUserUsage>;
export type AllTokenUsage = z.infer<typeof allTokenUsage>;
export type UserTokens = AllTokenUsage['users'][number];
export type SessionsTokenUsage = z.infer<typeof sessionsTokenUsage>;
export type InviteCode = z.infer<typeof inviteCode>;
export type InvitesGenerated = z.infer<typeof invitesGenerated>;
export type InviteCodes = z.infer<typeof inviteCodes>;
export type AdminMailSent = z.infer<typeof adminMailSent>;
export type FeedbackItem = z.infer<typeof feedbackItem>;
export type FeedbackPage = z.infer<typeof feedbackPage>;
export type OutboxMail = z.infer<typeof outboxMail>;
export type OutboxPage = z.infer<typeof outboxPage>;
export type AuditRead = z.infer<typeof auditRead>;
export type AuditReads = z.infer<typeof auditReads>;

/** Every read model with its checkpoint against the head of the log; `rebuild_here`: this process runs the projector, so it can rebuild. */
export const readModels = z.object({
  head: z.number().int(),
  rebuild_here: z.boolean(),
  projections: z.array(z.object({ name: z.string(), collections: z.array(z.string()), checkpoint: z.number().int(), failing: z.string().nullable() })),
});
export const rebuildStarted = z.object({ name: z.string(), head: z.number().int(), checkpoint: z.literal(0) });
/** A read model rebuilt into a shadow store and compared with the live one at `position`. */
export const verifyReport = z.object({
  projection: z.string(),
  position: z.number().int(),
  documents: z.number().int(),
  differences: z.array(z.object({ collection: z.string(), id: z.string(), kind: z.enum(['missing', 'extra', 'changed']), live: z.record(z.string(), z.unknown()).nullable(), shadow: z.record(z.string(), z.unknown()).nullable() })),
  truncated: z.boolean(),
});

export type ReadModels = z.infer<typeof readModels>;
export type ReadModel = ReadModels['projections'][number];
export type RebuildStarted = z.infer<typeof rebuildStarted>;
export type VerifyReport = z.infer<typeof verifyReport>;

const count = z.number().int();
/** /admin/dashboard: the whole product in numbers. */
export const dashboard = z.object({
  generated_at: z.string(),
  users: z.object({ total: count, active: count, verified: count, admins: count, new_24h: count, new_7d: count }),
  conversations: z.object({ total: count, new_7d: count, shared: count }),
  content: z.object({ notes: count, cognitions: count, public_cognitions: count, trajectories: count }),
  activity: z.object({ page_views_today: count, visitors_today: count, pages_today: z.record(z.string(), count) }),
  tokens: z.object({ today: count, active_users_today: count, last_7d: count, series: z.array(z.object({ day: z.string(), total_tokens: count, calls: count, users: count })) }),
});
export type Dashboard = z.infer<typeof dashboard>;

/** Requests: a schema is the one the route parses with; the client sends its `z.input`. */

const userIds = z.array(z.string().min(1).max(64), { error: 'admin.users_required' }).min(1, 'admin.users_empty').max(1000, 'admin.users_too_many');
const tokenLevelLimit = z.number({ error: 'admin.daily_limit_required' }).int('admin.daily_limit_integer').min(0, 'admin.daily_limit_negative').max(1_000_000_000, 'admin.daily_limit_too_large');
const amount = z.number({ error: 'budget.amount_required' }).positive('budget.amount_positive').max(1_000_000_000, 'budget.amount_too_large');
export const level = z.enum(LEVELS, { error: 'admin.level_invalid' });
const expiresAt = z
  .string()
  .trim()
  .refine((value) => !Number.isNaN(Date.parse(value)), 'budget.expiry_invalid')
  .transform((value) => new Date(value).toISOString())
  .nullable()
  .optional()
  .transform((value) => value ?? null);
/**
 * `daily_limit` (ours; the spec's payload has no such field): whether the new level's default limit
 * replaces the user's current one. Left out, the level's default applies, as the spec's callers expect.
 */
const dailyLimitChoice = z.enum(DAILY_LIMIT_CHOICES, { error: 'admin.daily_limit_choice_invalid' }).default('level_default');
const levelItem = z.object({ user_id: z.string().min(1).max(64), level, membership_expires_at: expiresAt, daily_limit: dailyLimitChoice });
export const activeBody = z.object({ is_active: z.boolean({ error: 'admin.is_active_invalid' }) });
export const batchActiveBody = z.object({ user_ids: userIds, is_active: z.boolean({ error: 'admin.is_active_invalid' }) });
/** The administrator sets a new password (the user tells it to them in person); every sign-in of the user ends. */
export const adminPasswordBody = z.object({ new_password: password });
export const auditorBody = z.object({ auditor: z.boolean() });
export const tokenLimitBody = z.object({ token_level_limit: tokenLevelLimit });
export const extraBudgetBody = z.object({ amount });
export const levelBody = levelItem.partial({ user_id: true });
export const batchRefreshBody = z.object({ user_ids: userIds.optional().nullable() });
export const batchLevelBody = z.array(levelItem).min(1, 'admin.users_empty').max(1000, 'admin.users_too_many');
export const batchTokenLimitBody = z.object({ user_ids: userIds, token_level_limit: tokenLevelLimit });
export const batchExtraBudgetBody = z.object({ user_ids: userIds, amount });
export const generateInvitesBody = z.object({ count: z.number({ error: 'admin.invite_count_required' }).int('admin.invite_count_integer').min(1, 'admin.invite_count_too_small').max(100, 'admin.invite_count_too_large').default(1) });
export const sendEmailBody = z.object({
  to_email: z.string({ error: 'admin.mail_to_required' }).trim().max(254, 'auth.email_too_long').pipe(z.email('auth.email_invalid')),
  subject: z.string({ error: 'admin.mail_subject_required' }).trim().min(1, 'admin.mail_subject_empty').max(200, 'admin.mail_subject_too_long'),
  content: z.string({ error: 'admin.mail_content_required' }).trim().min(1, 'admin.mail_content_empty').max(20_000, 'admin.mail_content_too_long'),
});

export type ActiveBody = z.input<typeof activeBody>;
export type BatchActiveBody = z.input<typeof batchActiveBody>;
export type AdminPasswordBody = z.input<typeof adminPasswordBody>;
export type AuditorBody = z.input<typeof auditorBody>;
export type TokenLimitBody = z.input<typeof tokenLimitBody>;
export type ExtraBudgetBody = z.input<typeof extraBudgetBody>;
export type LevelBody = z.input<typeof levelBody>;
export type BatchRefreshBody = z.input<typeof batchRefreshBody>;
export type BatchLevelBody = z.input<typeof batchLevelBody>;
export type BatchTokenLimitBody = z.input<typeof batchTokenLimitBody>;
export type BatchExtraBudgetBody = z.input<typeof batchExtraBudgetBody>;
export type GenerateInvitesBody = z.input<typeof generateInvitesBody>;
export type SendEmailBody = z.input<typeof sendEmailBody>;

/** The queries of the console's lists (GET /auth/admin/…, /conversation/api/admin/…): the client passes their `z.input`. */
export const usersQuery = paging(20, 100).extend({ search: z.string().max(100).optional(), level: level.optional(), is_active: queryFlag.optional() });
export const auditReadsQuery = paging(50, 200).extend({ auditor_id: z.string().min(1).max(64).optional() });
export const tokenOverviewQuery = paging(100, 500).extend({ search: z.string().max(100).optional() });
export const usagePageQuery = paging(100, 500);
export const inviteCodesQuery = paging(10, 100).extend({ status: z.enum(['all', 'unused', 'used', 'revoked'], { error: 'admin.invite_status_invalid' }).default('all') });
export const feedbackQuery = paging(20, 100).extend({ feedback_type: z.enum(FEEDBACK_TYPES).optional() });
export const outboxQuery = paging(20, 100);
export type UsersQuery = z.input<typeof usersQuery>;
export type AuditReadsQuery = z.input<typeof auditReadsQuery>;
export type TokenOverviewQuery = z.input<typeof tokenOverviewQuery>;
export type UsagePageQuery = z.input<typeof usagePageQuery>;
export type InviteCodesQuery = z.input<typeof inviteCodesQuery>;
export type InviteStatusFilter = NonNullable<InviteCodesQuery['status']>;
export type FeedbackQuery = z.input<typeof feedbackQuery>;
export type OutboxQuery = z.input<typeof outboxQuery>;
