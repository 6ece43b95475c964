import Router from '@koa/router';
import jwt from 'jsonwebtoken';
import type { Next, ParameterizedContext as Context } from 'koa';
import { z } from 'zod';
import { MailError } from '@scriptorium/infra/mail/port';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { USERS, type UserDoc } from '@scriptorium/projections/users';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { InviteRefused } from '../domain/invites/invite.ts';
import { VerificationCodes } from '../domain/mail/codes.ts';
import { userDecider, userStream } from '../domain/user/decide.ts';
import { emailClaimDecider, emailClaimStream, normaliseEmail } from '../domain/user/emailClaim.ts';
import { CODE_LENGTH, CodeRejected, ResendTooSoon } from '../domain/user/emailVerification.ts';
import { LoginThrottle } from '../domain/user/loginThrottle.ts';
import { changeEmail, precheckRegistration, registerAccount, userIdFor, type Registration } from '../domain/user/registration.ts';
import type { Services } from '../services.ts';
import { FORBIDDEN, requireUser, tokenHash } from './authenticate.ts';
import { HttpError } from './errors.ts';
import { parseBody, parseParams } from './validate.ts';

const username = z
  .string({ error: '请输入用户名' })
  .trim()
  .regex(/^[\p{L}\p{N}_.-]{3,32}$/u, '用户名需为 3–32 个字符，只能包含文字、数字、下划线、点或连字符');
const email = z.string({ error: '请输入邮箱' }).trim().max(254, '邮箱过长').pipe(z.email('邮箱格式不正确'));
const nickname = z.string().trim().max(32, '昵称最多 32 个字符');
const password = z.string({ error: '请输入密码' }).min(8, '密码至少 8 个字符').max(128, '密码最多 128 个字符');
const codeText = z
  .string({ error: '请输入 6 位验证码' })
  .trim()
  .regex(new RegExp(`^\\d{${CODE_LENGTH}}$`), '请输入 6 位数字验证码');
/** Blank optional fields count as absent: the form sends what its inputs hold. */
const blankAsAbsent = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value ?? undefined), schema.optional());

const registerBody = z.object({
  username,
  email,
  nickname: nickname.optional(),
  password,
  invite_code: blankAsAbsent(z.string().trim().max(64, '邀请码无效')),
  email_verification_code: blankAsAbsent(codeText),
});

const loginBody = z.object({ username: z.string({ error: '请输入用户名' }).trim().min(1, '请输入用户名').max(64), password: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(128) });

const profileBody = z
  .object({ nickname: nickname.min(1, '昵称不能为空').optional(), email: email.optional() })
  .strict()
  .refine((body) => body.nickname !== undefined || body.email !== undefined, '没有要修改的字段');

/** The user as `GET /auth/me` returns it (spec: _id, username, email, created_at, is_active, is_admin, email_verified). */
export const userDto = (doc: UserDoc) => ({
  _id: doc._id,
  id: doc._id,
  username: doc.username,
  email: doc.email,
  nickname: doc.nickname,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
  is_active: doc.is_active,
  is_admin: doc.is_admin,
  email_verified: doc.email_verified,
});

const missing = (field: string, msg: string) => new HttpError(422, [{ loc: ['body', field], msg, type: 'missing' }]);

/** Refusals of codes and mail, in the catalogue's statuses: a bad code 400, too soon 429, mail down 503. */
async function refusals(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (error) {
    if (error instanceof CodeRejected || error instanceof InviteRefused) throw new HttpError(400, error.message);
    if (error instanceof ResendTooSoon) throw new HttpError(429, error.message, { 'Retry-After': String(error.retryAfterSeconds) });
    if (error instanceof MailError) throw new HttpError(503, '邮件发送失败，请稍后重试');
    throw error;
  }
}

export function authRoutes(services: Services, progress: ProjectionProgress): Router {
  const router = new Router();
  const { config } = services;
  const users = () => services.readStore.collection<UserDoc>(USERS);
  const metadata = (userId?: string) => ({ now: services.clock(), ...(userId !== undefined && { userId }), correlationId: crypto.randomUUID() });
  const throttle = new LoginThrottle(services.attempts, { maxFailures: config.LOGIN_MAX_FAILURES, windowSeconds: config.LOGIN_WINDOW_SECONDS }, services.clock);
  const codes = new VerificationCodes(
    { commands: services.commands, mailer: services.mailer, secret: config.JWT_SECRET, clock: services.clock, log: services.log },
    { ttlSeconds: config.EMAIL_CODE_TTL_SECONDS, resendSeconds: config.EMAIL_CODE_RESEND_SECONDS, maxAttempts: config.EMAIL_CODE_MAX_ATTEMPTS },
  );

  async function readUser(userId: string, position: number): Promise<UserDoc> {
    await progress.waitFor(position);
    const doc = await users().get(userId);
    if (!doc) throw new HttpError(503, '账户已创建，正在同步，请稍后重试');
    return doc;
  }

  /** Checks the password, counting failures against the name and the address; the same 401 for an unknown name. */
  async function signIn(ctx: Context) {
    const body = parseBody(ctx, loginBody);
    const wait = await throttle.retryAfter(body.username, ctx.ip);
    if (wait > 0) throw new HttpError(429, `登录尝试过于频繁，请 ${Math.ceil(wait / 60)} 分钟后再试`, { 'Retry-After': String(wait) });
    const userId = userIdFor(body.username);
    const { state } = await services.commands.load(userDecider, userStream(userId));
    const ok = await verifyPassword(state.status !== 'unregistered' ? state.passwordHash : undefined, body.password);
    if (!ok || state.status === 'unregistered') {
      await throttle.fail(body.username, ctx.ip);
      throw new HttpError(401, '用户名或密码错误', { 'WWW-Authenticate': 'Bearer' });
    }
    await throttle.succeed(body.username, ctx.ip);
    return { userId, user: state, token: services.tokens.issue({ sub: userId, username: state.username }) };
  }

  router.use(refusals);

  router.get('/auth/registration-settings', (ctx) => {
    ctx.body = {
      invite_code_required: config.INVITE_CODE_REQUIRED,
      email_verification_required: config.EMAIL_VERIFICATION_REQUIRED,
      code_length: CODE_LENGTH,
      resend_seconds: config.EMAIL_CODE_RESEND_SECONDS,
    };
  });

  router.post('/auth/register', async (ctx) => {
    const body = parseBody(ctx, registerBody);
    if (config.INVITE_CODE_REQUIRED && body.invite_code === undefined) throw missing('invite_code', '请输入邀请码');
    if (config.EMAIL_VERIFICATION_REQUIRED && body.email_verification_code === undefined) throw missing('email_verification_code', '请输入邮箱验证码');
    const registration: Registration = {
      username: body.username,
      email: body.email,
      nickname: body.nickname || body.username,
      passwordHash: '',
      isAdmin: false,
      ...(body.invite_code !== undefined && { inviteCode: body.invite_code }),
      ...(body.email_verification_code !== undefined && { emailVerified: true }),
    };
    const meta = metadata();
    await precheckRegistration(services.commands, registration, meta);
    if (body.email_verification_code !== undefined) await codes.check(body.email, body.email_verification_code);
    const { userId, position } = await registerAccount(services.commands, { ...registration, passwordHash: await hashPassword(body.password) }, meta);
    ctx.body = userDto(await readUser(userId, position));
  });

  router.post('/auth/login', async (ctx) => {
    const { token } = await signIn(ctx);
    ctx.body = { access_token: token, token_type: 'bearer' };
  });

  router.post('/auth/admin/login', async (ctx) => {
    const { user, token } = await signIn(ctx);
    if (!user.isAdmin) throw new HttpError(403, FORBIDDEN);
    ctx.body = { access_token: token, token_type: 'bearer', is_admin: true };
  });

  router.post('/auth/logout', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { exp } = jwt.decode(user.token) as { exp: number };
    const result = await services.commands.handle(userDecider, userStream(user.id), {
      type: 'RevokeToken',
      data: { tokenHash: tokenHash(user.token), expiresAt: new Date(exp * 1000).toISOString() },
      metadata: metadata(user.id),
    });
    await progress.waitFor(result.position);
    ctx.body = { message: '已退出登录' };
  });

  router.get('/auth/me', async (ctx) => {
    const user = await requireUser(services, ctx, { allowInactive: true });
    ctx.body = userDto(user.doc);
  });

  router.patch('/users/:id', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, z.object({ id: z.string().min(1).max(64) }));
    if (id !== user.id && !user.doc.is_admin) throw new HttpError(403, FORBIDDEN);
    const target = await users().get(id);
    if (!target) throw new HttpError(404, '未找到用户信息');
    const body = parseBody(ctx, profileBody);
    let position = 0;
    if (body.email !== undefined) position = await changeEmail(services.commands, id, target.email, body.email, metadata(user.id));
    if (body.nickname !== undefined) {
      const result = await services.commands.handle(userDecider, userStream(id), { type: 'UpdateProfile', data: { nickname: body.nickname }, metadata: metadata(user.id) });
      position = Math.max(position, result.position);
    }
    ctx.body = userDto(await readUser(id, position));
  });

  const sendCode = async (ctx: Context) => {
    const body = parseBody(ctx, z.object({ email }));
    await codes.send(body.email);
    ctx.body = { message: '验证码已发送至您的邮箱', expires_in: config.EMAIL_CODE_TTL_SECONDS, resend_after: config.EMAIL_CODE_RESEND_SECONDS };
  };
  router.post('/auth/send-verification-email', sendCode);
  router.post('/auth/resend-verification-email', sendCode);

  /** A code that checks out verifies the account holding the address, if one does; registration may use it too. */
  router.post('/auth/verify-email', async (ctx) => {
    const body = parseBody(ctx, z.object({ email, code: codeText }));
    await codes.check(body.email, body.code);
    const address = normaliseEmail(body.email);
    const { state: claim } = await services.commands.load(emailClaimDecider, emailClaimStream(address));
    let position = 0;
    if (claim.status === 'held') {
      const result = await services.commands.handle(userDecider, userStream(claim.userId), { type: 'VerifyEmail', data: { email: address }, metadata: metadata(claim.userId) });
      position = result.position;
    }
    await progress.waitFor(position);
    ctx.body = { message: '邮箱验证成功', email: address, email_verified: true, account_verified: claim.status === 'held' };
  });

  return router;
}
