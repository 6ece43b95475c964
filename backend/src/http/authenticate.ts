import { createHash, randomUUID } from 'node:crypto';
import { grantDecider } from '@scriptorium/domain/oauth/decide';
import { grantStream } from '@scriptorium/domain/oauth/grant';
import { appSignInStream } from '@scriptorium/domain/signin/appSignIn';
import { appSignInDecider } from '@scriptorium/domain/signin/decide';
import type { ParameterizedContext as Context } from 'koa';
import type { Services } from '../services.ts';
import { APP_SIGN_INS, type AppSignInDoc } from '@scriptorium/projections/appSignIns';
import { OAUTH_GRANTS, type OAuthGrantDoc } from '@scriptorium/projections/oauthGrants';
import { REVOKED_TOKENS, USERS, type RevokedTokenDoc, type UserDoc } from '@scriptorium/projections/users';
import { httpError } from './errors.ts';
import { scopesAllow } from './scopes.ts';

export interface CurrentUser {
  id: string;
  doc: UserDoc;
  /** The bearer token the request came with (what a logout revokes). */
  token: string;
}


export const bearerToken = (ctx: Context): string | undefined => {
  const header = ctx.get('authorization');
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
};

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export const unauthorized = () => httpError(401, 'auth.unauthenticated', {}, { 'WWW-Authenticate': 'Bearer' });

/** What a sign-in rests on, once its token's signature checked out: what a socket keeps and re-checks. */
export interface SignIn {
  userId: string;
  tokenHash: string;
  /** The OAuth grant the token was issued under, for an app's token. */
  grantId?: string;
  /** The app's password sign-in the token was issued for (`login --password` of the command line). */
  appSignInId?: string;
  /** When the token was issued and when it expires (ms since the epoch). */
  issuedAt: number;
  expiresAt: number;
  /** An app's token's scopes; none for a browser's sign-in, which may do all (see `scopes.ts`). */
  scopes?: readonly string[];
}

/**
 * The sign-in's user from the read model, active or not; null when it was logged out, its grant or
 * app sign-in revoked, or it is older than the user's last password change (a changed password ends
 * every sign-in made with the old one).
 */
async function signedInUser(services: Services, signIn: SignIn): Promise<UserDoc | null> {
  if (await services.readStore.collection<RevokedTokenDoc>(REVOKED_TOKENS).get(signIn.tokenHash)) return null;
  // A token issued to an OAuth client lives only as long as the grant behind it.
  const grant = signIn.grantId === undefined ? null : await services.readStore.collection<OAuthGrantDoc>(OAUTH_GRANTS).get(signIn.grantId);
  if (signIn.grantId !== undefined && grant?.status !== 'active') return null;
  const appSignIn = signIn.appSignInId === undefined ? null : await services.readStore.collection<AppSignInDoc>(APP_SIGN_INS).get(signIn.appSignInId);
  if (signIn.appSignInId !== undefined && appSignIn?.status !== 'active') return null;
  const doc = await services.readStore.collection<UserDoc>(USERS).get(signIn.userId);
  if (!doc) return null;
  if (doc.password_changed_at && signIn.issuedAt < Date.parse(doc.password_changed_at)) return null;
  if (grant) noteUse(services, grant.last_used_at, () => services.commands.handle(grantDecider, grantStream(grant._id), { type: 'RecordGrantUse', data: {}, metadata: useMetadata(services, grant.user_id) }), grant._id);
  if (appSignIn)
    noteUse(services, appSignIn.last_used_at, () => services.commands.handle(appSignInDecider, appSignInStream(appSignIn._id), { type: 'RecordAppSignInUse', data: {}, metadata: useMetadata(services, appSignIn.user_id) }), appSignIn._id);
  return doc;
}

/** How stale an app's "last used" may get: one event per grant or app sign-in per this, however many calls it makes. */
export const GRANT_USE_EVERY_MS = 5 * 60_000;

const useMetadata = (services: Services, userId: string) => ({ now: services.clock(), userId, correlationId: randomUUID() });

/**
 * Records that an app's token was used, when its "last used" is older than GRANT_USE_EVERY_MS, without
 * holding up the call (a failure to record is logged; the call goes on).
 */
function noteUse(services: Services, lastUsedAt: string | null, record: () => Promise<unknown>, id: string): void {
  if (lastUsedAt !== null && services.clock().getTime() - Date.parse(lastUsedAt) < GRANT_USE_EVERY_MS) return;
  record().catch((error: unknown) => services.log.warn({ err: error, id }, 'recording an app’s use failed'));
}

/** The token's sign-in and user, or null when the token is absent, invalid or no longer holds (see `signedInUser`). */
export async function resolveToken(services: Services, token: string | undefined): Promise<(CurrentUser & { signIn: SignIn }) | null> {
  if (!token) return null;
  const claims = services.tokens.verify(token);
  if (!claims) return null;
  const signIn: SignIn = {
    userId: claims.sub,
    tokenHash: tokenHash(token),
    issuedAt: claims.issuedAt,
    expiresAt: claims.expiresAt,
    ...(claims.grantId !== undefined && { grantId: claims.grantId }),
    ...(claims.signInId !== undefined && { appSignInId: claims.signInId }),
    ...(claims.scopes !== undefined && { scopes: claims.scopes }),
  };
  const doc = await signedInUser(services, signIn);
  return doc ? { id: doc._id, doc, token, signIn } : null;
}

/**
 * Whether a sign-in a socket was opened with still holds, asked before the socket acts on a message:
 * the events that close sockets reach each process a little later than the read model changes.
 */
export async function signInStatus(services: Services, signIn: SignIn): Promise<'valid' | 'inactive' | 'ended'> {
  const doc = await signedInUser(services, signIn);
  if (!doc) return 'ended';
  return doc.is_active ? 'valid' : 'inactive';
}

/** Resolves a token to an active user (what the socket accepts); null otherwise. */
export async function userFromToken(services: Services, token: string | undefined): Promise<CurrentUser | null> {
  const user = await resolveToken(services, token);
  return user?.doc.is_active ? user : null;
}

/**
 * The signed-in user, or 401. A deactivated account gets 403 on everything except what passes
 * `allowInactive` (only GET /auth/me, so the client can send it to the draft page).
 */
export async function requireUser(services: Services, ctx: Context, options: { allowInactive?: boolean } = {}): Promise<CurrentUser & { signIn: SignIn }> {
  const user = await resolveToken(services, bearerToken(ctx));
  if (!user) throw unauthorized();
  // RFC 6750 §3.1: the token is good, but not for this.
  if (!scopesAllow(user.signIn.scopes, ctx.method, ctx.path)) throw httpError(403, 'auth.scope_insufficient', {}, { 'WWW-Authenticate': 'Bearer error="insufficient_scope"' });
  if (!user.doc.is_active && !options.allowInactive) throw httpError(403, 'auth.account_inactive');
  return user;
}

export async function requireAdmin(services: Services, ctx: Context): Promise<CurrentUser> {
  const user = await requireUser(services, ctx);
  if (!user.doc.is_admin) throw httpError(403, 'auth.forbidden');
  return user;
}

/** Auditors read any stream; administrators may too, since they grant the role. */
export async function requireAuditor(services: Services, ctx: Context): Promise<CurrentUser> {
  const user = await requireUser(services, ctx);
  if (!user.doc.is_admin && !user.doc.is_auditor) throw httpError(403, 'auth.forbidden');
  return user;
}
