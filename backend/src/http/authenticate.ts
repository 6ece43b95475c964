import type { ParameterizedContext as Context } from 'koa';
import type { Services } from '../services.ts';
import { USERS, type UserDoc } from '@scriptorium/projections/users';
import { HttpError } from './errors.ts';

export interface CurrentUser {
  id: string;
  doc: UserDoc;
}

export const bearerToken = (ctx: Context): string | undefined => {
  const header = ctx.get('authorization');
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
};

export const unauthorized = () => new HttpError(401, '认证失败，请重新登录', { 'WWW-Authenticate': 'Bearer' });

/** Resolves a token to its user from the read model; null when absent or invalid. */
export async function userFromToken(services: Services, token: string | undefined): Promise<CurrentUser | null> {
  if (!token) return null;
  const claims = services.tokens.verify(token);
  if (!claims) return null;
  const doc = await services.readStore.collection<UserDoc>(USERS).get(claims.sub);
  return doc ? { id: doc._id, doc } : null;
}

export async function requireUser(services: Services, ctx: Context): Promise<CurrentUser> {
  const user = await userFromToken(services, bearerToken(ctx));
  if (!user) throw unauthorized();
  return user;
}

export async function requireAdmin(services: Services, ctx: Context): Promise<CurrentUser> {
  const user = await requireUser(services, ctx);
  if (!user.doc.is_admin) throw new HttpError(403, '权限不足，无法访问');
  return user;
}
