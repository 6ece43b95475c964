import { refuse } from '@scriptorium/domain/refuse';
import Router from '@koa/router';
import type { ParameterizedContext as Context } from 'koa';
import { z } from 'zod';
import { DomainError } from '@scriptorium/infra/eventsourcing/decider';
import { MailError } from '@scriptorium/infra/mail/port';
import type { Filter } from '@scriptorium/infra/readstore/port';
import { ACCOUNTS, type AccountDoc } from '@scriptorium/projections/accounts';
import { FEEDBACK, type FeedbackDoc } from '@scriptorium/projections/feedback';
import { INVITE_CODES, type InviteCodeDoc } from '@scriptorium/projections/invites';
import { AUDIT_READS, type AuditReadDoc } from '@scriptorium/projections/auditReads';
import { MAIL_OUTBOX, type OutboxMailDoc } from '@scriptorium/projections/outbox';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import type { BudgetCommand } from '@scriptorium/domain/budget/decide';
import type { BudgetCommandInput } from '@scriptorium/domain/budget/guard';
import { inviteDecider, randomInviteCode } from '@scriptorium/domain/invites/decide';
import { inviteStream, normaliseInviteCode } from '@scriptorium/domain/invites/invite';
import { adminMail } from '@scriptorium/domain/mail/templates';
import { userDecider, userStream } from '@scriptorium/domain/user/decide';
import type { Services } from '../services.ts';
import { requireAdmin, type CurrentUser } from './authenticate.ts';
import { httpError, invalidField } from './errors.ts';
import { UsageQueries } from './usage.ts';
import { parseBody, parseParams, parseQuery } from './validate.ts';
import { contract } from './contract.ts';
import {
  activeBody,
  adminMailSent,
  adminPasswordBody,
  adminUserUsage,
  auditorBody,
  auditReads,
  batchActiveBody,
  batchExtraBudgetBody,
  batchLevelBody,
  batchRefreshBody,
  batchResult,
  batchTokenLimitBody,
  extraBudgetBody,
  feedbackPage,
  generateInvitesBody,
  inviteCode,
  inviteCodes,
  invitesGenerated,
  levelBody,
  usersQuery,
  auditReadsQuery,
  tokenOverviewQuery,
  inviteCodesQuery,
  feedbackQuery,
  outboxQuery,
  outboxPage,
  passwordReset,
  sendEmailBody,
  tokenLimitBody,
  tokenOverview,
  userRow,
  userRows,
} from '@scriptorium/domain/protocol/http/admin';

const idParam = z.object({ id: z.string().min(1).max(64) });

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
    if (unknown.length > 0) throw httpError(404, 'user.not_found_some', { ids: unknown.join('、') });
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
    if (value !== null && Date.parse(value) <= services.clock().getTime()) throw invalidField(['membership_expires_at'], 'budget.expiry_in_past');
  };

  const admin = (ctx: Context) => requireAdmin(services, ctx);

  router.get('/auth/admin/users', contract({ access: 'admin', query: usersQuery, responses: { 200: userRows } }), async (ctx) => {
    await admin(ctx);
    const query = parseQuery(ctx, usersQuery);
    const filter: Filter = { ...searchFilter(query.search), ...(query.level && { level: query.level }), ...(query.is_active !== undefined && { is_active: query.is_active }) };
    const [docs, total] = await Promise.all([accounts().find(filter, { sort: { username_lower: 1 }, skip: query.skip, limit: query.limit }), accounts().count(filter)]);
    ctx.body = { users: docs.map((doc) => queries.row(doc)), total, skip: query.skip, limit: query.limit };
  });

  const setActive = async (actor: CurrentUser, ids: string[], active: boolean) => {
    // Refuse before writing anything: switching yourself off is refused for every account in the batch.
    if (!active && ids.includes(actor.id)) throw refuse('forbidden', 'user.cannot_deactivate_self');
    let position = 0;
    for (const userId of ids) {
      const result = await services.commands.handle(userDecider, userStream(userId), { type: 'SetActive', data: { active, by: actor.id }, metadata: { now: services.clock(), userId: actor.id } });
      position = Math.max(position, result.position);
    }
    await progress.waitFor(position);
    return Promise.all(ids.map((id) => queries.tokenInfo(id)));
  };

  router.put('/auth/admin/users/:id/active', contract({ access: 'admin', params: idParam, body: activeBody, responses: { 200: userRow } }), async (ctx) => {
    const actor = await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, activeBody);
    const [row] = await setActive(actor, await existing([id]), body.is_active);
    ctx.body = row;
  });

  router.post('/auth/admin/users/batch-active', contract({ access: 'admin', body: batchActiveBody, responses: { 200: batchResult }, refusals: [404] }), async (ctx) => {
    const actor = await admin(ctx);
    const body = parseBody(ctx, batchActiveBody);
    const users = await setActive(actor, await existing(body.user_ids), body.is_active);
    ctx.body = { updated: users.length, users };
  });

  router.put('/auth/admin/users/:id/password', contract({ access: 'admin', summary: "Reset a user's password; every sign-in of theirs ends", params: idParam, body: adminPasswordBody, refusals: [404], responses: { 200: passwordReset } }), async (ctx) => {
    const actor = await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, adminPasswordBody);
    const [userId] = await existing([id]);
    const result = await services.commands.handle(userDecider, userStream(userId!), {
      type: 'ChangePassword',
      data: { passwordHash: await services.passwords.hash(body.new_password), reason: 'reset_by_admin', by: actor.id },
      metadata: { now: services.clock(), userId: actor.id },
    });
    await progress.waitFor(result.position);
    ctx.body = { id: userId, password_reset: true };
  });

  router.post('/auth/admin/users/:id/auditor', contract({ access: 'admin', summary: 'Grant or revoke the auditor role', params: idParam, body: auditorBody, responses: { 200: userRow } }), async (ctx) => {
    const actor = await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, auditorBody);
    const [userId] = await existing([id]);
    const result = await services.commands.handle(userDecider, userStream(userId!), { type: 'SetAuditor', data: { auditor: body.auditor, by: actor.id }, metadata: { now: services.clock(), userId: actor.id } });
    await progress.waitFor(result.position);
    ctx.body = await queries.tokenInfo(userId!);
  });

  router.get('/auth/admin/audit-reads', contract({ access: 'admin', summary: 'Who read which stream at /audit, newest first', query: auditReadsQuery, responses: { 200: auditReads } }), async (ctx) => {
    await admin(ctx);
    const query = parseQuery(ctx, auditReadsQuery);
    const filter: Filter = query.auditor_id ? { auditor_id: query.auditor_id } : {};
    const reads = services.readStore.collection<AuditReadDoc>(AUDIT_READS);
    const [docs, total] = await Promise.all([reads.find(filter, { sort: { position: -1 }, skip: query.skip, limit: query.limit }), reads.count(filter)]);
    const names = new Map((await Promise.all([...new Set(docs.map((doc) => doc.auditor_id))].map((id) => accounts().get(id)))).flatMap((doc) => (doc ? [[doc._id, doc.username] as const] : [])));
    ctx.body = { reads: docs.map(({ _id, ...doc }) => ({ id: _id, ...doc, auditor: names.get(doc.auditor_id) ?? doc.auditor_id })), total, skip: query.skip, limit: query.limit };
  });

  router.get('/auth/admin/users/token-overview', contract({ access: 'admin', query: tokenOverviewQuery, responses: { 200: tokenOverview } }), async (ctx) => {
    await admin(ctx);
    const query = parseQuery(ctx, tokenOverviewQuery);
    const filter = searchFilter(query.search);
    const [docs, total] = await Promise.all([accounts().find(filter, { sort: { username_lower: 1 }, skip: query.skip, limit: query.limit }), accounts().count(filter)]);
    const users = docs.map((doc) => queries.row(doc));
    const sum = (pick: (row: (typeof users)[number]) => number) => Math.round(users.reduce((total, row) => total + pick(row), 0) * 1000) / 1000;
    ctx.body = { users, total, skip: query.skip, limit: query.limit, page_today_usage: sum((row) => row.today_usage), page_all_usage: sum((row) => row.all_usage) };
  });

  router.get('/auth/admin/users/:id/token-info', contract({ access: 'admin', params: idParam, responses: { 200: userRow } }), async (ctx) => {
    await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    ctx.body = await queries.tokenInfo(id);
  });

  router.get('/auth/admin/users/:id/token-usage', contract({ access: 'admin', params: idParam, responses: { 200: adminUserUsage } }), async (ctx) => {
    await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    const account = await queries.account(id);
    ctx.body = { username: account.username, ...(await queries.usage(id)) };
  });

  /** A budget change to the user the path names, built from the route's parsed body; the answer is the user's row as it now reads. */
  const changeNamedUser =
    <S extends z.ZodType>(schema: S, changeFor: (body: z.output<S>, actor: CurrentUser) => BudgetChange) =>
    async (ctx: Context & { params: Record<string, string> }) => {
      const actor = await admin(ctx);
      const { id } = parseParams(ctx.params, idParam);
      const body = parseBody(ctx, schema);
      const [row] = await change(actor, await existing([id]), () => changeFor(body, actor));
      ctx.body = row;
    };

  router.put(
    '/auth/admin/users/:id/token-limit',
    contract({ access: 'admin', params: idParam, body: tokenLimitBody, responses: { 200: userRow } }),
    changeNamedUser(tokenLimitBody, (body, actor) => ({ type: 'SetTokenLimit', data: { tokenLevelLimit: body.token_level_limit, by: actor.id } })),
  );

  router.post(
    '/auth/admin/users/:id/extra-budget',
    contract({ access: 'admin', params: idParam, body: extraBudgetBody, responses: { 200: userRow } }),
    changeNamedUser(extraBudgetBody, (body, actor) => ({ type: 'AddExtraBudget', data: { amount: body.amount, by: actor.id } })),
  );

  router.put('/auth/admin/users/:id/level', contract({ access: 'admin', params: idParam, body: levelBody, responses: { 200: userRow } }), async (ctx) => {
    const actor = await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, levelBody);
    if (body.user_id !== undefined && body.user_id !== id) throw invalidField(['user_id'], 'admin.user_id_mismatch');
    checkFuture(body.membership_expires_at);
    const [row] = await change(actor, await existing([id]), () => ({ type: 'SetLevel', data: { level: body.level, membershipExpiresAt: body.membership_expires_at, dailyLimit: body.daily_limit, by: actor.id } }));
    ctx.body = row;
  });

  router.post('/auth/admin/users/:id/refresh-tokens', contract({ access: 'admin', params: idParam, responses: { 200: userRow } }), async (ctx) => {
    const actor = await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    const [row] = await change(actor, await existing([id]), () => ({ type: 'RefreshQuota', data: { by: actor.id } }));
    ctx.body = row;
  });

  router.post('/auth/admin/users/batch-refresh-tokens', contract({ access: 'admin', body: batchRefreshBody, responses: { 200: batchResult }, refusals: [404] }), async (ctx) => {
    const actor = await admin(ctx);
    const body = parseBody(ctx, batchRefreshBody);
    const ids = body.user_ids ? await existing(body.user_ids) : (await accounts().find({}, { sort: { username_lower: 1 } })).map((doc) => doc._id);
    const users = await change(actor, ids, () => ({ type: 'RefreshQuota', data: { by: actor.id } }));
    ctx.body = { updated: users.length, users };
  });

  router.post('/auth/admin/users/batch-update-level', contract({ access: 'admin', body: batchLevelBody, responses: { 200: batchResult }, refusals: [404] }), async (ctx) => {
    const actor = await admin(ctx);
    const items = parseBody(ctx, batchLevelBody);
    for (const item of items) checkFuture(item.membership_expires_at);
    const byUser = new Map(items.map((item) => [item.user_id, item]));
    const users = await change(actor, await existing([...byUser.keys()]), (userId) => {
      const item = byUser.get(userId)!;
      return { type: 'SetLevel', data: { level: item.level, membershipExpiresAt: item.membership_expires_at, dailyLimit: item.daily_limit, by: actor.id } };
    });
    ctx.body = { updated: users.length, users };
  });

  router.put('/auth/admin/users/batch-token-limit', contract({ access: 'admin', body: batchTokenLimitBody, responses: { 200: batchResult }, refusals: [404] }), async (ctx) => {
    const actor = await admin(ctx);
    const body = parseBody(ctx, batchTokenLimitBody);
    const users = await change(actor, await existing(body.user_ids), () => ({ type: 'SetTokenLimit', data: { tokenLevelLimit: body.token_level_limit, by: actor.id } }));
    ctx.body = { updated: users.length, users };
  });

  router.post('/auth/admin/users/batch-extra-budget', contract({ access: 'admin', body: batchExtraBudgetBody, responses: { 200: batchResult }, refusals: [404] }), async (ctx) => {
    const actor = await admin(ctx);
    const body = parseBody(ctx, batchExtraBudgetBody);
    const users = await change(actor, await existing(body.user_ids), () => ({ type: 'AddExtraBudget', data: { amount: body.amount, by: actor.id } }));
    ctx.body = { updated: users.length, users };
  });

  router.post('/auth/admin/invite-codes/generate', contract({ access: 'admin', body: generateInvitesBody, responses: { 200: invitesGenerated } }), async (ctx) => {
    const actor = await admin(ctx);
    const body = parseBody(ctx, generateInvitesBody);
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

  const inviteCodeParam = z.object({ code: z.string().min(1).max(32) });
  router.post('/auth/admin/invite-codes/:code/revoke', contract({ access: 'admin', summary: 'Withdraw an unused invite code', params: inviteCodeParam, refusals: [404, 409], responses: { 200: inviteCode } }), async (ctx) => {
    const actor = await admin(ctx);
    const { code } = parseParams(ctx.params, inviteCodeParam);
    const result = await services.commands.handle(inviteDecider, inviteStream(code), { type: 'RevokeInviteCode', data: { revokedBy: actor.id }, metadata: { now: services.clock(), userId: actor.id } });
    await progress.waitFor(result.position);
    const doc = await services.readStore.collection<InviteCodeDoc>(INVITE_CODES).get(normaliseInviteCode(code));
    if (!doc) throw httpError(404, 'admin.invite_not_found');
    ctx.body = inviteDto(doc);
  });

  router.get('/auth/admin/invite-codes', contract({ access: 'admin', query: inviteCodesQuery, responses: { 200: inviteCodes } }), async (ctx) => {
    await admin(ctx);
    const query = parseQuery(ctx, inviteCodesQuery);
    const filter: Filter = query.status === 'all' ? {} : { status: query.status };
    const codes = services.readStore.collection<InviteCodeDoc>(INVITE_CODES);
    const [docs, total] = await Promise.all([codes.find(filter, { sort: { created_at: -1 }, skip: query.skip, limit: query.limit }), codes.count(filter)]);
    ctx.body = { invite_codes: docs.map(inviteDto), total, skip: query.skip, limit: query.limit, status: query.status };
  });

  router.post('/auth/admin/send-email', contract({ access: 'admin', body: sendEmailBody, refusals: [503], responses: { 200: adminMailSent } }), async (ctx) => {
    await admin(ctx);
    const body = parseBody(ctx, sendEmailBody);
    try {
      await services.mailer.send(adminMail(body.to_email, body.subject, body.content));
    } catch (error) {
      if (error instanceof MailError) throw httpError(503, 'mail.send_failed');
      throw error;
    }
    ctx.body = { message: '邮件已发送', to_email: body.to_email };
  });

  router.get('/auth/admin/feedback', contract({ access: 'admin', query: feedbackQuery, responses: { 200: feedbackPage } }), async (ctx) => {
    await admin(ctx);
    const query = parseQuery(ctx, feedbackQuery);
    const filter: Filter = query.feedback_type ? { feedback_type: query.feedback_type } : {};
    const feedback = services.readStore.collection<FeedbackDoc>(FEEDBACK);
    const [docs, total] = await Promise.all([feedback.find(filter, { sort: { created_at: -1 }, skip: query.skip, limit: query.limit }), feedback.count(filter)]);
    ctx.body = { feedback: docs.map(({ _id, ...doc }) => ({ id: _id, ...doc })), total, skip: query.skip, limit: query.limit };
  });

  router.get('/auth/admin/outbox', contract({ access: 'admin', query: outboxQuery, responses: { 200: outboxPage } }), async (ctx) => {
    await admin(ctx);
    const query = parseQuery(ctx, outboxQuery);
    const outbox = services.readStore.collection<OutboxMailDoc>(MAIL_OUTBOX);
    const [docs, total] = await Promise.all([outbox.find({}, { sort: { created_at: -1 }, skip: query.skip, limit: query.limit }), outbox.count()]);
    ctx.body = { transport: services.mailer.transport, mails: docs.map(({ _id, ...doc }) => ({ id: _id, ...doc })), total, skip: query.skip, limit: query.limit };
  });

  return router;
}
