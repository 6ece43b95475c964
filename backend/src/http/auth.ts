import Router from '@koa/router';
import jwt from 'jsonwebtoken';
import type { Next, ParameterizedContext as Context } from 'koa';
import { z } from 'zod';
import { MailError } from '@scriptorium/infra/mail/port';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { APP_SIGN_INS, type AppSignInDoc } from '@scriptorium/projections/appSignIns';
import { USERS, type UserDoc } from '@scriptorium/projections/users';
import { InviteRefused } from '@scriptorium/domain/invites/invite';
import { VerificationCodes } from '@scriptorium/domain/mail/codes';
import { userDecider, userStream } from '@scriptorium/domain/user/decide';
import { emailClaimDecider, emailClaimStream, normaliseEmail } from '@scriptorium/domain/user/emailClaim';
import { CodeRejected, ResendTooSoon } from '@scriptorium/domain/user/emailVerification';
import { CODE_LENGTH } from '@scriptorium/domain/protocol/limits';
import { AddressLimit, LoginThrottle } from '@scriptorium/domain/user/loginThrottle';
import { changeEmail, precheckRegistration, registerAccount, userIdFor, type Registration } from '@scriptorium/domain/user/registration';
import { appSignInStream } from '@scriptorium/domain/signin/appSignIn';
import { appSignInDecider } from '@scriptorium/domain/signin/decide';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_MS, DEVICE_COOKIE_PATH, DeviceCookies } from '../auth/deviceCookie.ts';
import type { Services } from '../services.ts';
import { requireUser, tokenHash } from './authenticate.ts';
import { HttpError, httpError, invalidField } from './errors.ts';
import { parseBody, parseParams } from './validate.ts';
import { contract } from './contract.ts';
import {
  adminSignInReply,
  changePasswordBody,
  codeSentReply,
  email,
  emailBody,
  emailVerifiedReply,
  messageReply,
  nickname,
  registerBody,
  registrationSettings,
  resetPasswordBody,
  signInReply,
  userReply,
  verifyEmailBody,
  type UserReply,
} from '@scriptorium/domain/protocol/http/auth';
import { appSignIns as appSignInsReply, revokedReply } from '@scriptorium/domain/protocol/http/oauth';
import { clientRegistry } from './oauth.ts';
import { DEFAULT_SCOPE, requestedScopes } from '@scriptorium/domain/oauth/clients';

const loginBody = z.object({ username: z.string({ error: 'auth.username_required' }).trim().min(1, 'auth.username_required').max(64), password: z.string({ error: 'auth.password_required' }).min(1, 'auth.password_required').max(128) });
/**
 * An app signing in with a password (the command line's `login --password`) names itself, a registered
 * OAuth client, the device it runs on and, as an OAuth client does, the scopes it needs (`account`
 * when it names none): the sign-in is then listed under "Authorised apps". A browser names none of them.
 */
const appLoginBody = loginBody.extend({
  client_id: z.string().max(64).optional(),
  scope: z.string().max(256).optional(),
  device_name: z
    .string()
    .max(200)
    .transform((name) => name.replace(/[\p{Cc}\p{Cf}]/gu, '').trim().slice(0, 64))
    .optional(),
});
const appSignInParams = z.object({ id: z.string().regex(/^[a-f0-9]{32}$/) });

const profileBody = z
  .object({ nickname: nickname.min(1, 'auth.nickname_empty').optional(), email: email.optional() })
  .strict()
  .refine((body) => body.nickname !== undefined || body.email !== undefined, 'auth.nothing_to_change');

/** The user as `GET /auth/me` returns it (spec: _id, username, email, created_at, is_active, is_admin, email_verified). */
export const userDto = (doc: UserDoc): UserReply => ({
  _id: doc._id,
  id: doc._id,
  username: doc.username,
  email: doc.email,
  nickname: doc.nickname,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
  is_active: doc.is_active,
  is_admin: doc.is_admin,
  is_auditor: doc.is_auditor ?? false,
  email_verified: doc.email_verified,
});

/** Refusals of codes and mail, in the catalogue's statuses: a bad code 400, too soon 429, mail down 503. */
async function refusals(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (error) {
    if (error instanceof CodeRejected || error instanceof InviteRefused) throw new HttpError(400, error.message, error.code, error.params);
    if (error instanceof ResendTooSoon) throw new HttpError(429, error.message, error.code, error.params, { 'Retry-After': String(error.retryAfterSeconds) });
    if (error instanceof MailError) throw httpError(503, 'mail.send_failed');
    throw error;
  }
}

export function authRoutes(services: Services, progress: ProjectionProgress): Router {
  const router = new Router();
  const { config } = services;
  const users = () => services.readStore.collection<UserDoc>(USERS);
  const metadata = (userId?: string) => ({ now: services.clock(), ...(userId !== undefined && { userId }), correlationId: crypto.randomUUID() });
  const throttle = new LoginThrottle(
    services.attempts,
    { maxFailures: config.LOGIN_MAX_FAILURES, windowSeconds: config.LOGIN_WINDOW_SECONDS, maxDelaySeconds: config.LOGIN_MAX_DELAY_SECONDS },
    services.clock,
  );
  const devices = new DeviceCookies(config.JWT_SECRET);
  const clients = clientRegistry(services);
  const appSignIns = () => services.readStore.collection<AppSignInDoc>(APP_SIGN_INS);
  const registrations = new AddressLimit(services.attempts, 'register', { max: config.REGISTER_MAX_PER_ADDRESS, windowSeconds: config.REGISTER_WINDOW_SECONDS }, services.clock);
  const lookAlikes = async (usernameKey: string) => (await users().find({ username_key: usernameKey }, { limit: 1 }))[0]?._id;
  const codes = new VerificationCodes(
    { commands: services.commands, mailer: services.mailer, secret: config.JWT_SECRET, clock: services.clock, log: services.log },
    { ttlSeconds: config.EMAIL_CODE_TTL_SECONDS, resendSeconds: config.EMAIL_CODE_RESEND_SECONDS, maxAttempts: config.EMAIL_CODE_MAX_ATTEMPTS },
  );

  // A reset code is a code of its own (`pwreset-…`), mailed with its own words; the same lifetime and attempts.
  const resetCodes = new VerificationCodes(
    { commands: services.commands, mailer: services.mailer, secret: config.JWT_SECRET, clock: services.clock, log: services.log },
    { ttlSeconds: config.EMAIL_CODE_TTL_SECONDS, resendSeconds: config.EMAIL_CODE_RESEND_SECONDS, maxAttempts: config.EMAIL_CODE_MAX_ATTEMPTS },
    'reset',
  );
  /** Wrong current passwords per account, as sign-in counts a name and address pair. */
  const passwordChanges = new AddressLimit(services.attempts, 'password-change', { max: config.LOGIN_MAX_FAILURES, windowSeconds: config.LOGIN_WINDOW_SECONDS }, services.clock);
  /** Reset requests and attempts per address: each mails someone, or spends a code's attempts. */
  const resets = new AddressLimit(services.attempts, 'password-reset', { max: config.LOGIN_MAX_FAILURES * 2, windowSeconds: config.LOGIN_WINDOW_SECONDS }, services.clock);
  const tooMany = (wait: number) => httpError(429, 'auth.too_many_attempts', { minutes: Math.ceil(wait / 60) }, { 'Retry-After': String(wait) });

  async function readUser(userId: string, position: number): Promise<UserDoc> {
    await progress.waitFor(position);
    const doc = await users().get(userId);
    if (!doc) throw httpError(503, 'auth.account_syncing');
    return doc;
  }

  /** The attempt log is Redis when configured: while it is down sign-in cannot be throttled, so it is refused with 503, not 500. */
  const throttled = <T>(work: Promise<T>): Promise<T> =>
    work.catch((error: unknown) => {
      services.log.warn({ err: error }, 'sign-in throttle unavailable');
      throw httpError(503, 'auth.throttle_unavailable', {}, { 'Retry-After': '5' });
    });

  /**
   * Checks the password, counting failures against the name and the address; the same 401 for an
   * unknown name. A browser with this user's device cookie is spared the account's delay, and a good
   * sign-in leaves (or renews) one.
   */
  async function signIn(ctx: Context, options: { app: boolean }) {
    const body = parseBody(ctx, appLoginBody, { form: true });
    // The admin console is a browser: an app naming itself there would leave a listed sign-in behind a refusal.
    const clientId = options.app ? body.client_id : undefined;
    const app = clientId === undefined ? undefined : clients.find(clientId);
    if (clientId !== undefined && !app) throw invalidField(['client_id'], 'auth.unknown_client', { client: clientId });
    // A scope narrows an app's token; a browser's sign-in has none, so asking for one without naming the app is refused rather than ignored.
    const scopes = body.scope === undefined || !options.app ? [DEFAULT_SCOPE] : app ? requestedScopes(body.scope) : null;
    if (scopes === null) throw invalidField(['scope'], 'oauth.invalid_scope');
    const wait = await throttled(throttle.retryAfter(body.username, ctx.ip));
    if (wait > 0) throw httpError(429, 'auth.too_many_attempts', { minutes: Math.ceil(wait / 60) }, { 'Retry-After': String(wait) });
    const userId = userIdFor(body.username);
    const device = devices.deviceOf(ctx.cookies.get(DEVICE_COOKIE), userId);
    const trusted = (await throttled(throttle.trusts(device))) ? device : null;
    const delay = await throttled(throttle.delayMs(body.username, trusted));
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const { state } = await services.commands.load(userDecider, userStream(userId));
    const ok = await services.passwords.verify(state.status !== 'unregistered' ? state.passwordHash : undefined, body.password);
    if (!ok || state.status === 'unregistered') {
      await throttled(throttle.fail(body.username, ctx.ip, trusted));
      throw httpError(401, 'auth.invalid_credentials', {}, { 'WWW-Authenticate': 'Bearer' });
    }
    await throttled(throttle.succeed(body.username, ctx.ip, device));
    ctx.cookies.set(DEVICE_COOKIE, devices.issue(userId, device ?? undefined), {
      httpOnly: true,
      sameSite: 'strict',
      secure: ctx.secure,
      path: DEVICE_COOKIE_PATH,
      maxAge: DEVICE_COOKIE_MAX_AGE_MS,
      overwrite: true,
    });
    if (!app) return { userId, user: state, token: services.tokens.issue({ sub: userId, username: state.username }) };
    const signInId = crypto.randomUUID().replaceAll('-', '');
    const recorded = await services.commands.handle(appSignInDecider, appSignInStream(signInId), {
      type: 'RecordAppSignIn',
      data: { signInId, userId, clientId: app.id, deviceName: body.device_name ?? '', scope: scopes.join(' '), ttlSeconds: config.JWT_TTL_SECONDS },
      metadata: metadata(userId),
    });
    // The token is checked against the sign-in's read model: answer once it is there.
    await progress.waitFor(recorded.position);
    return { userId, user: state, token: services.tokens.issue({ sub: userId, username: state.username, signInId, scopes }) };
  }

  router.use(refusals);

  router.get('/auth/registration-settings', contract({ access: 'public', responses: { 200: registrationSettings } }), (ctx) => {
    ctx.body = {
      invite_code_required: config.INVITE_CODE_REQUIRED,
      email_verification_required: config.EMAIL_VERIFICATION_REQUIRED,
      code_length: CODE_LENGTH,
      resend_seconds: config.EMAIL_CODE_RESEND_SECONDS,
    };
  });

  router.post('/auth/register', contract({ access: 'public', body: registerBody, responses: { 200: userReply }, refusals: [400, 409, 429, 503] }), async (ctx) => {
    const body = parseBody(ctx, registerBody);
    const wait = await throttled(registrations.retryAfter(ctx.ip));
    if (wait > 0) throw httpError(429, 'auth.too_many_registrations', { minutes: Math.ceil(wait / 60) }, { 'Retry-After': String(wait) });
    if (config.INVITE_CODE_REQUIRED && body.invite_code === undefined) throw invalidField(['invite_code'], 'auth.invite_required', {}, 'missing');
    if (config.EMAIL_VERIFICATION_REQUIRED && body.email_verification_code === undefined) throw invalidField(['email_verification_code'], 'auth.email_code_required', {}, 'missing');
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
    await precheckRegistration(services.commands, registration, meta, lookAlikes);
    if (body.email_verification_code !== undefined) await codes.check(body.email, body.email_verification_code);
    const { userId, position } = await registerAccount(services.commands, { ...registration, passwordHash: await services.passwords.hash(body.password) }, meta);
    await throttled(registrations.record(ctx.ip));
    ctx.body = userDto(await readUser(userId, position));
  });

  router.post('/auth/login', contract({ access: 'public', body: appLoginBody, form: true, responses: { 200: signInReply }, refusals: [401, 429, 503] }), async (ctx) => {
    const { token } = await signIn(ctx, { app: true });
    ctx.body = { access_token: token, token_type: 'bearer' };
  });

  router.post('/auth/admin/login', contract({ access: 'public', body: loginBody, form: true, responses: { 200: adminSignInReply }, refusals: [401, 403, 429, 503] }), async (ctx) => {
    const { user, token } = await signIn(ctx, { app: false });
    if (!user.isAdmin) throw httpError(403, 'auth.forbidden');
    ctx.body = { access_token: token, token_type: 'bearer', is_admin: true };
  });

  router.post('/auth/logout', contract({ access: 'user', responses: { 200: messageReply } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { exp } = jwt.decode(user.token) as { exp: number };
    const { appSignInId } = user.signIn;
    // An app's sign-in ends as a whole, so it also leaves "Authorised apps".
    const result =
      appSignInId !== undefined
        ? await services.commands.handle(appSignInDecider, appSignInStream(appSignInId), { type: 'RevokeAppSignIn', data: { by: 'client', actorId: user.id }, metadata: metadata(user.id) })
        : await services.commands.handle(userDecider, userStream(user.id), {
            type: 'RevokeToken',
            data: { tokenHash: tokenHash(user.token), expiresAt: new Date(exp * 1000).toISOString() },
            metadata: metadata(user.id),
          });
    await progress.waitFor(result.position);
    ctx.body = { message: '已退出登录' };
  });

  router.get('/auth/app-sign-ins', contract({ summary: 'The password sign-ins apps made for the user (the command line), still valid', access: 'user', responses: { 200: appSignInsReply } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const now = services.clock().getTime();
    const passwordChangedAt = user.doc.password_changed_at === undefined ? 0 : Date.parse(user.doc.password_changed_at);
    const docs = await appSignIns().find({ user_id: user.id, status: 'active' }, { sort: { last_used_at: -1 }, limit: 200 });
    ctx.body = {
      sign_ins: docs
        .filter((doc) => Date.parse(doc.expires_at) > now && Date.parse(doc.signed_in_at) >= passwordChangedAt)
        .map((doc) => {
          const client = clients.find(doc.client_id);
          return {
            id: doc._id,
            client_id: doc.client_id,
            client_name: client?.name ?? doc.client_id,
            client_name_en: client?.nameEn ?? client?.name ?? doc.client_id,
            device_name: doc.device_name,
            scope: doc.scope ?? DEFAULT_SCOPE,
            signed_in_at: doc.signed_in_at,
            last_used_at: doc.last_used_at,
            expires_at: doc.expires_at,
          };
        }),
    };
  });

  router.delete('/auth/app-sign-ins/:id', contract({ summary: 'The user ends an app’s password sign-in: its token stops working at once', access: 'user', params: appSignInParams, responses: { 200: revokedReply }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, appSignInParams);
    const result = await services.commands.handle(appSignInDecider, appSignInStream(id), { type: 'RevokeAppSignIn', data: { by: 'user', actorId: user.id }, metadata: metadata(user.id) });
    await progress.waitFor(result.position);
    ctx.body = { id, status: 'revoked' };
  });

  router.get('/auth/me', contract({ access: 'user', responses: { 200: userReply } }), async (ctx) => {
    const user = await requireUser(services, ctx, { allowInactive: true });
    ctx.body = userDto(user.doc);
  });

  const userParams = z.object({ id: z.string().min(1).max(64) });
  router.patch('/users/:id', contract({ access: 'user', params: userParams, body: profileBody, responses: { 200: userReply }, refusals: [403, 404, 409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, userParams);
    if (id !== user.id && !user.doc.is_admin) throw httpError(403, 'auth.forbidden');
    const target = await users().get(id);
    if (!target) throw httpError(404, 'user.not_found');
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
    const body = parseBody(ctx, emailBody);
    await codes.send(body.email);
    ctx.body = { message: '验证码已发送至您的邮箱', expires_in: config.EMAIL_CODE_TTL_SECONDS, resend_after: config.EMAIL_CODE_RESEND_SECONDS };
  };
  router.post('/auth/send-verification-email', contract({ access: 'public', body: emailBody, responses: { 200: codeSentReply }, refusals: [429, 503] }), sendCode);
  router.post('/auth/resend-verification-email', contract({ access: 'public', body: emailBody, responses: { 200: codeSentReply }, refusals: [429, 503] }), sendCode);

  /** A code that checks out verifies the account holding the address, if one does; registration may use it too. */
  router.post('/auth/verify-email', contract({ access: 'public', body: verifyEmailBody, responses: { 200: emailVerifiedReply }, refusals: [400, 429] }), async (ctx) => {
    const body = parseBody(ctx, verifyEmailBody);
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

  /**
   * The signed-in user changes their password, knowing the current one. Every sign-in made before
   * ends (this one too: the change is dated after it), so this browser is handed a new token.
   */
  router.post('/auth/password', contract({ summary: 'Change my password; every other sign-in ends', access: 'user', body: changePasswordBody, responses: { 200: signInReply }, refusals: [400, 429, 503] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, changePasswordBody);
    const wait = await throttled(passwordChanges.retryAfter(user.id));
    if (wait > 0) throw tooMany(wait);
    const { state } = await services.commands.load(userDecider, userStream(user.id));
    if (state.status === 'unregistered' || !(await services.passwords.verify(state.passwordHash, body.current_password))) {
      await throttled(passwordChanges.record(user.id));
      throw httpError(400, 'auth.current_password_wrong');
    }
    const result = await services.commands.handle(userDecider, userStream(user.id), { type: 'ChangePassword', data: { passwordHash: await services.passwords.hash(body.new_password), reason: 'changed' }, metadata: metadata(user.id) });
    await progress.waitFor(result.position);
    ctx.body = { access_token: services.tokens.issue({ sub: user.id, username: state.username }), token_type: 'bearer' };
  });

  /** A reset code goes only to an address an account holds; any address is answered alike, so the answer tells nobody which are. */
  router.post('/auth/password-reset/request', contract({ summary: 'Mail a password reset code to the address of an account', access: 'public', body: emailBody, responses: { 200: codeSentReply }, refusals: [429, 503] }), async (ctx) => {
    const body = parseBody(ctx, emailBody);
    const wait = await throttled(resets.retryAfter(ctx.ip));
    if (wait > 0) throw tooMany(wait);
    await throttled(resets.record(ctx.ip));
    const { state: claim } = await services.commands.load(emailClaimDecider, emailClaimStream(normaliseEmail(body.email)));
    // Within the countdown the code already mailed still holds: saying so would say the address is an account's.
    if (claim.status === 'held') await resetCodes.send(body.email).catch((error: unknown) => {
      if (!(error instanceof ResendTooSoon)) throw error;
    });
    ctx.body = { message: '如果该邮箱属于某个账户，重置密码的验证码已发送至该邮箱', expires_in: config.EMAIL_CODE_TTL_SECONDS, resend_after: config.EMAIL_CODE_RESEND_SECONDS };
  });

  /** The mailed code sets a new password; every sign-in made before it ends. */
  router.post('/auth/password-reset', contract({ summary: 'Set a new password with a mailed reset code', access: 'public', body: resetPasswordBody, responses: { 200: messageReply }, refusals: [400, 403, 429] }), async (ctx) => {
    const body = parseBody(ctx, resetPasswordBody);
    const wait = await throttled(resets.retryAfter(ctx.ip));
    if (wait > 0) throw tooMany(wait);
    await resetCodes.check(body.email, body.code);
    const { state: claim } = await services.commands.load(emailClaimDecider, emailClaimStream(normaliseEmail(body.email)));
    if (claim.status !== 'held') throw httpError(400, 'auth.code_missing');
    const result = await services.commands.handle(userDecider, userStream(claim.userId), { type: 'ChangePassword', data: { passwordHash: await services.passwords.hash(body.new_password), reason: 'reset_by_code' }, metadata: metadata(claim.userId) });
    await resetCodes.withdraw(body.email, body.code);
    await progress.waitFor(result.position);
    ctx.body = { message: '密码已重置，请使用新密码登录' };
  });

  return router;
}
