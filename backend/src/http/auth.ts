import Router from '@koa/router';
import { z } from 'zod';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { USERS, type UserDoc } from '@scriptorium/projections/users';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { userDecider, userStream } from '../domain/user/decide.ts';
import { changeEmail, registerAccount, userIdFor } from '../domain/user/registration.ts';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { HttpError } from './errors.ts';
import { parseBody, parseParams } from './validate.ts';

const username = z
  .string({ error: '请输入用户名' })
  .trim()
  .regex(/^[\p{L}\p{N}_.-]{3,32}$/u, '用户名需为 3–32 个字符，只能包含文字、数字、下划线、点或连字符');
const email = z.string({ error: '请输入邮箱' }).trim().max(254, '邮箱过长').pipe(z.email('邮箱格式不正确'));
const nickname = z.string().trim().max(32, '昵称最多 32 个字符');
const password = z.string({ error: '请输入密码' }).min(8, '密码至少 8 个字符').max(128, '密码最多 128 个字符');

const registerBody = z.object({
  username,
  email,
  nickname: nickname.optional(),
  password,
  invite_code: z.string().trim().max(64).optional().nullable(),
  email_verification_code: z.string().trim().max(16).optional().nullable(),
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

export function authRoutes(services: Services, progress: ProjectionProgress): Router {
  const router = new Router();
  const users = () => services.readStore.collection<UserDoc>(USERS);
  const metadata = (userId?: string) => ({ now: services.clock(), ...(userId !== undefined && { userId }), correlationId: crypto.randomUUID() });

  async function readUser(userId: string, position: number): Promise<UserDoc> {
    await progress.waitFor(position);
    const doc = await users().get(userId);
    if (!doc) throw new HttpError(503, '账户已创建，正在同步，请稍后重试');
    return doc;
  }

  router.post('/auth/register', async (ctx) => {
    const body = parseBody(ctx, registerBody);
    if (body.invite_code) throw new HttpError(400, '邀请码无效');
    const { userId, position } = await registerAccount(
      services.commands,
      { username: body.username, email: body.email, nickname: body.nickname || body.username, passwordHash: await hashPassword(body.password), isAdmin: false },
      metadata(),
    );
    ctx.body = userDto(await readUser(userId, position));
  });

  router.post('/auth/login', async (ctx) => {
    const body = parseBody(ctx, loginBody);
    const userId = userIdFor(body.username);
    const { state } = await services.commands.load(userDecider, userStream(userId));
    const ok = await verifyPassword(state.status === 'active' ? state.passwordHash : undefined, body.password);
    if (!ok || state.status !== 'active') throw new HttpError(401, '用户名或密码错误', { 'WWW-Authenticate': 'Bearer' });
    ctx.body = { access_token: services.tokens.issue({ sub: userId, username: state.username }), token_type: 'bearer' };
  });

  router.get('/auth/me', async (ctx) => {
    const user = await requireUser(services, ctx);
    ctx.body = userDto(user.doc);
  });

  router.patch('/users/:id', async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, z.object({ id: z.string().min(1).max(64) }));
    if (id !== user.id && !user.doc.is_admin) throw new HttpError(403, '权限不足，无法访问');
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

  return router;
}

