import Router from '@koa/router';
import type { ParameterizedContext as Context } from 'koa';
import { z } from 'zod';
import { DomainError } from '@scriptorium/infra/eventsourcing/decider';
import { MailError } from '@scriptorium/infra/mail/port';
import type { Filter } from '@scriptorium/infra/readstore/port';
import { ACCOUNTS, type AccountDoc } from '@scriptorium/projections/accounts';
import { FEEDBACK, type FeedbackDoc } from '@scriptorium/projections/feedback';
import { INVITE_CODES, type InviteCodeDoc } from '@scriptorium/projections/invites';
import { MAIL_OUTBOX, type OutboxMailDoc } from '@scriptorium/projections/outbox';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { LEVELS } from '../domain/budget/budget.ts';
import type { BudgetCommand } from '../domain/budget/decide.ts';
import type { BudgetCommandInput } from '../domain/budget/guard.ts';
import { FEEDBACK_TYPES } from '../domain/feedback/feedback.ts';
import { inviteDecider, randomInviteCode } from '../domain/invites/decide.ts';
import { inviteStream } from '../domain/invites/invite.ts';
import { adminMail } from '../domain/mail/templates.ts';
import { userDecider, userStream } from '../domain/user/decide.ts';
import type { Services } from '../services.ts';
import { requireAdmin, type CurrentUser } from './authenticate.ts';
import { HttpError } from './errors.ts';
import { paging, UsageQueries } from './usage.ts';
import { parseBody, parseParams, parseQuery } from './validate.ts';

const idParam = z.object({ id: z.string().min(1).max(64) });
const userIds = z.array(z.string().min(1).max(64), { error: '请选择用户' }).min(1, '请至少选择一个用户').max(1000, '一次最多 1000 个用户');
const tokenLevelLimit = z.number({ error: '请输入每日额度' }).int('每日额度需为整数').min(0, '每日额度不能小于 0').max(1_000_000_000, '每日额度过大');
const amount = z.number({ error: '请输入追加额度' }).positive('追加额度必须大于 0').max(1_000_000_000, '追加额度过大');
const level = z.enum(LEVELS, { error: '等级只能是 basic、premium、vip 或 admin' });
const expiresAt = z
  .string()
  .trim()
  .refine((value) => !Number.isNaN(Date.parse(value)), '会员到期时间格式不正确')
  .transform((value) => new Date(value).toISOString())
  .nullable()
  .optional()
  .transform((value) => value ?? null);
const levelItem = z.object({ user_id: z.string().min(1).max(64), level, membership_expires_at: expiresAt });
const boolQuery = z.enum(['true', 'false']).transform((value) => value === 'true');

/** Prefix search, the one kind of text match every read store answers from an index. */
function searchFilter(search: string | undefined): Filter {
  const term = search?.trim().toLowerCase();
  if (!term) return {};
  const field = term.includes('@') ? 'email' : 'username_lower';
  return { [field]: { $gte: term, $lt: `${term}\u{10ffff}` } };
}

const inviteDto = (doc: InviteCodeDoc) => ({
  code: doc.code,
  status: doc.status,
  is_used: doc.status === 'used',
  created_by: doc.created_by,
  created_at: doc.created_at,
  used_by: doc.used_by,
  used_by_username: doc.used_by_username,
  used_at: doc.used_at,
});

type BudgetChange = BudgetCommand extends infer C ? (C extends { type: infer T; data: infer D } ? { type: T; data: Omit<D, 'userId' | 'today'> } : never) : never;

/** The admin console's server side: every route here is for administrators only. */
export function adminRoutes(services: Services, progress: ProjectionProgress): Router {
  const router = new Router();
  const queries = new UsageQueries(services);
  const accounts = () => services.readStore.collection<AccountDoc>(ACCOUNTS);

  /** All or none: an unknown id refuses the whole batch before anything is written. */
  async function existing(ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    const docs = await Promise.all(unique.map((id) => accounts().get(id)));
    const unknown = unique.filter((_, index) => !docs[index]);
    if (unknown.length > 0) throw new HttpError(404, `未找到用户信息：${unknown.join('、')}`);
    return unique;
  }

  async function change(admin: CurrentUser, ids: string[], changeFor: (userId: string) => BudgetChange) {
    let position = 0;
    for (const userId of ids) {
      const { type, data } = changeFor(userId);
      const result = await services.budget.run(userId, { type, data: { ...data, userId, today: services.budget.today() } } as BudgetCommandInput, { actorId: admin.id });
      position = Math.max(position, result.position);
    }
    await progress.waitFor(position);
    return Promise.all(ids.map((id) => queries.tokenInfo(id)));
  }

  const checkFuture = (value: string | null) => {
    if (value !== null && Date.parse(value) <= services.clock().getTime()) throw new HttpError(422, [{ loc: ['body', 'membership_expires_at'], msg: '会员到期时间必须晚于当前时间', type: 'value_error' }]);
  };

  const admin = (ctx: Context) => requireAdmin(services, ctx);

  router.get('/auth/admin/users', async (ctx) => {
    await admin(ctx);
    const query = parseQuery(ctx, paging(20, 100).extend({ search: z.string().max(100).optional(), level: level.optional(), is_active: boolQuery.optional() }));
    const filter: Filter = { ...searchFilter(query.search), ...(query.level && { level: query.level }), ...(query.is_active !== undefined && { is_active: query.is_active }) };
    const [docs, total] = await Promise.all([accounts().find(filter, { sort: { username_lower: 1 }, skip: query.skip, limit: query.limit }), accounts().count(filter)]);
    ctx.body = { users: docs.map((doc) => queries.row(doc)), total, skip: query.skip, limit: query.limit };
  });

  const setActive = async (actor: CurrentUser, ids: string[], active: boolean) => {
    // Refuse before writing anything: switching yourself off is refused for every account in the batch.
    if (!active && ids.includes(actor.id)) throw new DomainError('forbidden', '不能停用自己的账户');
    let position = 0;
    for (const userId of ids) {
      const result = await services.commands.handle(userDecider, userStream(userId), { type: 'SetActive', data: { active, by: actor.id }, metadata: { now: services.clock(), userId: actor.id } });
      position = Math.max(position, result.position);
    }
    await progress.waitFor(position);
    return Promise.all(ids.map((id) => queries.tokenInfo(id)));
  };

  router.put('/auth/admin/users/:id/active', async (ctx) => {
    const actor = await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, z.object({ is_active: z.boolean({ error: 'is_active 需为 true 或 false' }) }));
    const [row] = await setActive(actor, await existing([id]), body.is_active);
    ctx.body = row;
  });

  router.post('/auth/admin/users/batch-active', async (ctx) => {
    const actor = await admin(ctx);
    const body = parseBody(ctx, z.object({ user_ids: userIds, is_active: z.boolean({ error: 'is_active 需为 true 或 false' }) }));
    const users = await setActive(actor, await existing(body.user_ids), body.is_active);
    ctx.body = { updated: users.length, users };
  });

  router.get('/auth/admin/users/token-overview', async (ctx) => {
    await admin(ctx);
    const query = parseQuery(ctx, paging(100, 500).extend({ search: z.string().max(100).optional() }));
    const filter = searchFilter(query.search);
    const [docs, total] = await Promise.all([accounts().find(filter, { sort: { username_lower: 1 }, skip: query.skip, limit: query.limit }), accounts().count(filter)]);
    const users = docs.map((doc) => queries.row(doc));
    const sum = (pick: (row: (typeof users)[number]) => number) => Math.round(users.reduce((total, row) => total + pick(row), 0) * 1000) / 1000;
    ctx.body = { users, total, skip: query.skip, limit: query.limit, page_today_usage: sum((row) => row.today_usage), page_all_usage: sum((row) => row.all_usage) };
  });

  router.get('/auth/admin/users/:id/token-info', async (ctx) => {
    await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    ctx.body = await queries.tokenInfo(id);
  });

  router.get('/auth/admin/users/:id/token-usage', async (ctx) => {
    await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    const account = await queries.account(id);
    ctx.body = { username: account.username, ...(await queries.usage(id)) };
  });

  router.put('/auth/admin/users/:id/token-limit', async (ctx) => {
    const actor = await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, z.object({ token_level_limit: tokenLevelLimit }));
    const [row] = await change(actor, await existing([id]), () => ({ type: 'SetTokenLimit', data: { tokenLevelLimit: body.token_level_limit, by: actor.id } }));
    ctx.body = row;
  });

  router.post('/auth/admin/users/:id/extra-budget', async (ctx) => {
    const actor = await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, z.object({ amount }));
    const [row] = await change(actor, await existing([id]), () => ({ type: 'AddExtraBudget', data: { amount: body.amount, by: actor.id } }));
    ctx.body = row;
  });

  router.put('/auth/admin/users/:id/level', async (ctx) => {
    const actor = await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, levelItem.partial({ user_id: true }));
    if (body.user_id !== undefined && body.user_id !== id) throw new HttpError(422, [{ loc: ['body', 'user_id'], msg: 'user_id 与路径中的用户不一致', type: 'value_error' }]);
    checkFuture(body.membership_expires_at);
    const [row] = await change(actor, await existing([id]), () => ({ type: 'SetLevel', data: { level: body.level, membershipExpiresAt: body.membership_expires_at, by: actor.id } }));
    ctx.body = row;
  });

  router.post('/auth/admin/users/:id/refresh-tokens', async (ctx) => {
    const actor = await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    const [row] = await change(actor, await existing([id]), () => ({ type: 'RefreshQuota', data: { by: actor.id } }));
    ctx.body = row;
  });

  router.post('/auth/admin/users/batch-refresh-tokens', async (ctx) => {
    const actor = await admin(ctx);
    const body = parseBody(ctx, z.object({ user_ids: userIds.optional().nullable() }));
    const ids = body.user_ids ? await existing(body.user_ids) : (await accounts().find({}, { sort: { username_lower: 1 } })).map((doc) => doc._id);
    const users = await change(actor, ids, () => ({ type: 'RefreshQuota', data: { by: actor.id } }));
    ctx.body = { updated: users.length, users };
  });

  router.post('/auth/admin/users/batch-update-level', async (ctx) => {
    const actor = await admin(ctx);
    const items = parseBody(ctx, z.array(levelItem).min(1, '请至少选择一个用户').max(1000, '一次最多 1000 个用户'));
    for (const item of items) checkFuture(item.membership_expires_at);
    const byUser = new Map(items.map((item) => [item.user_id, item]));
    const users = await change(actor, await existing([...byUser.keys()]), (userId) => {
      const item = byUser.get(userId)!;
      return { type: 'SetLevel', data: { level: item.level, membershipExpiresAt: item.membership_expires_at, by: actor.id } };
    });
    ctx.body = { updated: users.length, users };
  });

  router.put('/auth/admin/users/batch-token-limit', async (ctx) => {
    const actor = await admin(ctx);
    const body = parseBody(ctx, z.object({ user_ids: userIds, token_level_limit: tokenLevelLimit }));
    const users = await change(actor, await existing(body.user_ids), () => ({ type: 'SetTokenLimit', data: { tokenLevelLimit: body.token_level_limit, by: actor.id } }));
    ctx.body = { updated: users.length, users };
  });

  router.post('/auth/admin/users/batch-extra-budget', async (ctx) => {
    const actor = await admin(ctx);
    const body = parseBody(ctx, z.object({ user_ids: userIds, amount }));
    const users = await change(actor, await existing(body.user_ids), () => ({ type: 'AddExtraBudget', data: { amount: body.amount, by: actor.id } }));
    ctx.body = { updated: users.length, users };
  });

  router.post('/auth/admin/invite-codes/generate', async (ctx) => {
    const actor = await admin(ctx);
    const body = parseBody(ctx, z.object({ count: z.number({ error: '请输入生成数量' }).int('数量需为整数').min(1, '至少生成 1 个').max(100, '一次最多生成 100 个').default(1) }));
    const codes: string[] = [];
    let position = 0;
    while (codes.length < body.count) {
      const code = randomInviteCode();
      try {
        const result = await services.commands.handle(inviteDecider, inviteStream(code), { type: 'GenerateInviteCode', data: { code, createdBy: actor.id }, metadata: { now: services.clock(), userId: actor.id } });
        position = Math.max(position, result.position);
        codes.push(code);
      } catch (error) {
        // A code already issued (one chance in 8e11): draw another.
        if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
      }
    }
    await progress.waitFor(position);
    const docs = await Promise.all(codes.map((code) => services.readStore.collection<InviteCodeDoc>(INVITE_CODES).get(code)));
    ctx.body = { invite_codes: docs.flatMap((doc) => (doc ? [inviteDto(doc)] : [])), count: codes.length };
  });

  router.get('/auth/admin/invite-codes', async (ctx) => {
    await admin(ctx);
    const query = parseQuery(ctx, paging(10, 100).extend({ status: z.enum(['all', 'unused', 'used'], { error: 'status 只能是 all、unused 或 used' }).default('all') }));
    const filter: Filter = query.status === 'all' ? {} : { status: query.status };
    const codes = services.readStore.collection<InviteCodeDoc>(INVITE_CODES);
    const [docs, total] = await Promise.all([codes.find(filter, { sort: { created_at: -1 }, skip: query.skip, limit: query.limit }), codes.count(filter)]);
    ctx.body = { invite_codes: docs.map(inviteDto), total, skip: query.skip, limit: query.limit, status: query.status };
  });

  router.post('/auth/admin/send-email', async (ctx) => {
    await admin(ctx);
    const body = parseBody(
      ctx,
      z.object({
        to_email: z.string({ error: '请输入收件人' }).trim().max(254, '邮箱过长').pipe(z.email('邮箱格式不正确')),
        subject: z.string({ error: '请输入主题' }).trim().min(1, '主题不能为空').max(200, '主题最多 200 个字符'),
        content: z.string({ error: '请输入内容' }).trim().min(1, '内容不能为空').max(20_000, '内容最多 20000 个字符'),
      }),
    );
    try {
      await services.mailer.send(adminMail(body.to_email, body.subject, body.content));
    } catch (error) {
      if (error instanceof MailError) throw new HttpError(503, '邮件发送失败，请稍后重试');
      throw error;
    }
    ctx.body = { message: '邮件已发送', to_email: body.to_email };
  });

  router.get('/auth/admin/feedback', async (ctx) => {
    await admin(ctx);
    const query = parseQuery(ctx, paging(20, 100).extend({ feedback_type: z.enum(FEEDBACK_TYPES).optional() }));
    const filter: Filter = query.feedback_type ? { feedback_type: query.feedback_type } : {};
    const feedback = services.readStore.collection<FeedbackDoc>(FEEDBACK);
    const [docs, total] = await Promise.all([feedback.find(filter, { sort: { created_at: -1 }, skip: query.skip, limit: query.limit }), feedback.count(filter)]);
    ctx.body = { feedback: docs.map(({ _id, ...doc }) => ({ id: _id, ...doc })), total, skip: query.skip, limit: query.limit };
  });

  router.get('/auth/admin/outbox', async (ctx) => {
    await admin(ctx);
    const query = parseQuery(ctx, paging(20, 100));
    const outbox = services.readStore.collection<OutboxMailDoc>(MAIL_OUTBOX);
    const [docs, total] = await Promise.all([outbox.find({}, { sort: { created_at: -1 }, skip: query.skip, limit: query.limit }), outbox.count()]);
    ctx.body = { transport: services.mailer.transport, mails: docs.map(({ _id, ...doc }) => ({ id: _id, ...doc })), total, skip: query.skip, limit: query.limit };
  });

  return router;
}
