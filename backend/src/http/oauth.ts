import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { ParameterizedContext as Context } from 'koa';
import { z } from 'zod';
import { DomainError } from '@scriptorium/infra/eventsourcing/decider';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { OAUTH_GRANTS, type OAuthGrantDoc } from '@scriptorium/projections/oauthGrants';
import { USERS, type UserDoc } from '@scriptorium/projections/users';
import { CLI_CLIENT, ClientRegistry, requestedScopes, SCOPES, type OAuthClient } from '@scriptorium/domain/oauth/clients';
import { grantDecider } from '@scriptorium/domain/oauth/decide';
import { isOAuthCode, RFC_ERROR, type RfcError } from '@scriptorium/domain/oauth/errors';
import { grantStream } from '@scriptorium/domain/oauth/grant';
import { CHALLENGE, grantIdOf, hashSecret, newSecret } from '@scriptorium/domain/oauth/secrets';
import { anyErrorText, type ErrorCode } from '@scriptorium/domain/protocol/errors';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { contract } from './contract.ts';
import { authorisedApps, authorizeAnswerReply, authorizeBody, authorizeQuery, authorizeRequestReply, oauthMetadata, oauthTokenReply, revokedReply } from '@scriptorium/domain/protocol/http/oauth';
import { httpError } from './errors.ts';
import { parseBody, parseParams, parseQuery } from './validate.ts';

/**
 * An OAuth 2.0 authorisation server for public clients (RFC 6749 with PKCE S256 only, RFC 7636),
 * native apps on loopback redirects (RFC 8252), revocation (RFC 7009) and metadata (RFC 8414).
 * The consent page (`/oauth/authorize`, the client) asks this api what a request means and sends the
 * user's answer; the browser then follows the redirect it is given. Tokens are the product's own
 * access tokens, carrying the client and the grant, so every route accepts them and a revoked grant
 * ends them at once.
 */

type AuthorizeRequest = z.infer<typeof authorizeQuery>;

/** Token and revocation requests are forms; each parameter once (RFC 6749 §3.2). */
const formParams = z.record(z.string(), z.string().max(4096));
const grantParams = z.object({ id: z.string().regex(/^[a-f0-9]{32}$/) });

/** An OAuth error: the RFC's name for it and the catalogue's finer reason. */
class OAuthRefusal extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status = code === 'oauth.invalid_client' ? 401 : 400,
  ) {
    super(code);
  }
  get error(): RfcError {
    return isOAuthCode(this.code) ? RFC_ERROR[this.code] : 'invalid_request';
  }
}

/** RFC 6749 §5.2: `{error, error_description}`, the description in ASCII English as the RFC requires. */
async function oauthErrors(ctx: Context, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    const refusal = error instanceof OAuthRefusal ? error : error instanceof DomainError && isOAuthCode(error.code) ? new OAuthRefusal(error.code) : null;
    if (!refusal) throw error;
    ctx.status = refusal.status;
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Pragma', 'no-cache');
    ctx.body = { error: refusal.error, error_description: anyErrorText(refusal.code, {}, 'en'), code: refusal.code };
  }
}

/** The configured public origin, else the one this request came to (Koa 3's `ctx.origin` is the Origin header instead). */
export function oauthIssuer(services: Services, ctx: Context): string {
  return services.config.PUBLIC_URL ?? `${ctx.protocol}://${ctx.host}`;
}

/** RFC 8414 metadata, at the well-known path outside `/backend` where clients look for it. */
export function oauthMetadataRoutes(services: Services): Router {
  const router = new Router();
  router.get('/.well-known/oauth-authorization-server', contract({ summary: 'RFC 8414 authorisation server metadata', access: 'public', responses: { 200: oauthMetadata } }), (ctx) => {
    const issuer = oauthIssuer(services, ctx);
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = {
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/backend/oauth/token`,
      revocation_endpoint: `${issuer}/backend/oauth/revoke`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      scopes_supported: SCOPES,
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${issuer}/cli/docs`,
      ui_locales_supported: ['zh-CN', 'en'],
    };
  });
  return router;
}

export const clientRegistry = (services: Services): ClientRegistry =>
  new ClientRegistry([
    CLI_CLIENT,
    ...services.config.OAUTH_CLIENTS.map((client): OAuthClient => ({ id: client.id, name: client.name, ...(client.name_en !== undefined && { nameEn: client.name_en }), redirectUris: client.redirect_uris, native: client.native })),
  ]);

const clientDto = (client: OAuthClient) => ({ id: client.id, name: client.name, name_en: client.nameEn ?? client.name });

export function oauthRoutes(services: Services, progress: ProjectionProgress): Router {
  const router = new Router();
  const { config } = services;
  const clients = clientRegistry(services);
  const grants = () => services.readStore.collection<OAuthGrantDoc>(OAUTH_GRANTS);
  const metadata = (userId?: string) => ({ now: services.clock(), ...(userId !== undefined && { userId }), correlationId: randomUUID() });

  /** The client and redirect, or a 400 the page shows: an unchecked redirect is never followed (RFC 6749 §4.1.2.1). */
  function resolveClient(request: AuthorizeRequest) {
    try {
      return clients.resolve(request.client_id, request.redirect_uri);
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'oauth.invalid_client' || error.code === 'oauth.invalid_redirect')) throw httpError(400, error.code);
      throw error;
    }
  }

  /** The redirect back to the client with these parameters, its `state` and our `iss` (RFC 9207). */
  function redirectTo(ctx: Context, redirectUri: string, request: AuthorizeRequest, params: Record<string, string>): string {
    const url = new URL(redirectUri);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    if (request.state !== undefined) url.searchParams.set('state', request.state);
    url.searchParams.set('iss', oauthIssuer(services, ctx));
    return url.toString();
  }

  const errorRedirect = (ctx: Context, redirectUri: string, request: AuthorizeRequest, code: ErrorCode & `oauth.${string}`) =>
    redirectTo(ctx, redirectUri, request, { error: isOAuthCode(code) ? RFC_ERROR[code] : 'invalid_request', error_description: anyErrorText(code, {}, 'en') });

  /** What is wrong with a request whose client and redirect are fine, in the order RFC 6749 §4.1.2.1 lists. */
  function requestProblem(request: AuthorizeRequest): (ErrorCode & `oauth.${string}`) | null {
    if (request.response_type !== 'code') return 'oauth.unsupported_response_type';
    if (request.code_challenge === undefined || request.code_challenge_method !== 'S256') return 'oauth.pkce_required';
    if (!CHALLENGE.test(request.code_challenge)) return 'oauth.invalid_request';
    if (requestedScopes(request.scope) === null) return 'oauth.invalid_scope';
    return null;
  }

  router.get('/oauth/authorize', contract({ summary: 'What an authorisation request asks, for the consent page', access: 'user', query: authorizeQuery, responses: { 200: authorizeRequestReply }, refusals: [400] }), async (ctx) => {
    await requireUser(services, ctx);
    const request = parseQuery(ctx, authorizeQuery);
    const { client, redirectUri } = resolveClient(request);
    const problem = requestProblem(request);
    ctx.body = problem
      ? { status: 'error', redirect_to: errorRedirect(ctx, redirectUri, request, problem) }
      : { status: 'consent', client: clientDto(client), scopes: requestedScopes(request.scope), redirect_uri: redirectUri, native: client.native };
  });

  router.post('/oauth/authorize', contract({ summary: 'The user approves or denies an authorisation request', access: 'user', body: authorizeBody, responses: { 200: authorizeAnswerReply }, refusals: [400] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const request = parseBody(ctx, authorizeBody);
    const { redirectUri } = resolveClient(request);
    const problem = requestProblem(request);
    if (problem) {
      ctx.body = { redirect_to: errorRedirect(ctx, redirectUri, request, problem) };
      return;
    }
    if (request.decision === 'deny') {
      ctx.body = { redirect_to: redirectTo(ctx, redirectUri, request, { error: 'access_denied', error_description: 'The user denied the request' }) };
      return;
    }
    const grantId = randomUUID().replaceAll('-', '');
    const code = newSecret(grantId);
    await services.commands.handle(grantDecider, grantStream(grantId), {
      type: 'IssueCode',
      data: { grantId, userId: user.id, clientId: request.client_id!, scope: requestedScopes(request.scope)!.join(' '), redirectUri, codeHash: hashSecret(code), codeChallenge: request.code_challenge!, ttlSeconds: config.OAUTH_CODE_TTL_SECONDS },
      metadata: metadata(user.id),
    });
    ctx.body = { redirect_to: redirectTo(ctx, redirectUri, request, { code }) };
  });

  /** The client named by a token or revocation request: public clients authenticate by their id alone (RFC 6749 §2.3, none). */
  function publicClient(params: Record<string, string>): OAuthClient {
    const client = clients.find(params.client_id);
    if (!client) throw new OAuthRefusal('oauth.invalid_client');
    return client;
  }

  function formOf(ctx: Context): Record<string, string> {
    if (!ctx.is('urlencoded')) throw new OAuthRefusal('oauth.invalid_request');
    const parsed = formParams.safeParse((ctx.request as { body?: unknown }).body ?? {});
    if (!parsed.success) throw new OAuthRefusal('oauth.invalid_request');
    return parsed.data;
  }

  const required = (params: Record<string, string>, ...names: string[]) => {
    if (names.some((name) => !params[name])) throw new OAuthRefusal('oauth.invalid_request');
  };

  async function activeUser(userId: string): Promise<UserDoc> {
    const user = await services.readStore.collection<UserDoc>(USERS).get(userId);
    if (!user?.is_active) throw new OAuthRefusal('oauth.account_inactive');
    return user;
  }

  /** A password changed after the user approved ends the grant, as it ends every sign-in made before it. */
  const changedPasswordSince = (user: UserDoc, approvedAt: string) => user.password_changed_at !== undefined && Date.parse(user.password_changed_at) > Date.parse(approvedAt);

  /** `scope`: what the user approved, the grant's for good (a refresh cannot widen it). */
  async function tokens(user: UserDoc, client: OAuthClient, grant: { grantId: string; scope: string }, refreshToken: string, position: number) {
    // The access token is checked against the grant's read model: answer once it says active.
    await progress.waitFor(position);
    return {
      access_token: services.tokens.issue({ sub: user._id, username: user.username, clientId: client.id, grantId: grant.grantId, scopes: grant.scope.split(' ') }, config.OAUTH_ACCESS_TTL_SECONDS),
      token_type: 'Bearer',
      expires_in: config.OAUTH_ACCESS_TTL_SECONDS,
      refresh_token: refreshToken,
      scope: grant.scope,
    };
  }

  const tokenForm = z.object({ grant_type: z.enum(['authorization_code', 'refresh_token']), client_id: z.string(), code: z.string().optional(), redirect_uri: z.string().optional(), code_verifier: z.string().optional(), refresh_token: z.string().optional() });
  router.post('/oauth/token', contract({ summary: 'RFC 6749 §4.1.3 and §6: code exchange and refresh', access: 'public', body: tokenForm, form: 'only', errors: 'oauth', responses: { 200: oauthTokenReply }, refusals: [400, 401] }), async (ctx) =>
    oauthErrors(ctx, async () => {
      const params = formOf(ctx);
      required(params, 'grant_type');
      const client = publicClient(params);
      if (params.grant_type !== 'authorization_code' && params.grant_type !== 'refresh_token') throw new OAuthRefusal('oauth.unsupported_grant_type');
      const presented = params.grant_type === 'authorization_code' ? params.code : params.refresh_token;
      if (params.grant_type === 'authorization_code') required(params, 'code', 'redirect_uri', 'code_verifier');
      else required(params, 'refresh_token');
      const grantId = grantIdOf(presented ?? '');
      if (!grantId) throw new OAuthRefusal('oauth.invalid_grant');
      const { state } = await services.commands.load(grantDecider, grantStream(grantId));
      if (state.status === 'none') throw new OAuthRefusal('oauth.invalid_grant');
      const user = await activeUser(state.userId);
      if (changedPasswordSince(user, state.issuedAt)) throw new OAuthRefusal('oauth.grant_revoked');
      const refreshToken = newSecret(grantId);
      const refreshHash = hashSecret(refreshToken);
      const data = { clientId: client.id, refreshHash, refreshTtlSeconds: config.OAUTH_REFRESH_TTL_SECONDS };
      const result =
        params.grant_type === 'authorization_code'
          ? await services.commands.handle(grantDecider, grantStream(grantId), {
              type: 'ExchangeCode',
              data: { ...data, codeHash: hashSecret(presented!), redirectUri: params.redirect_uri!, codeVerifier: params.code_verifier! },
              metadata: metadata(state.userId),
            })
          : await services.commands.handle(grantDecider, grantStream(grantId), { type: 'RotateRefresh', data: { ...data, presentedHash: hashSecret(presented!) }, metadata: metadata(state.userId) });
      // A replayed code or refresh token revoked the grant: recorded, and still refused.
      const revoked = result.newEvents.find((event) => event.type === 'OAuthGrantRevoked');
      if (revoked) {
        await progress.waitFor(result.position);
        throw new OAuthRefusal(params.grant_type === 'authorization_code' ? 'oauth.code_reused' : 'oauth.grant_revoked');
      }
      ctx.set('Pragma', 'no-cache');
      ctx.body = await tokens(user, client, { grantId, scope: state.scope }, refreshToken, result.position);
    }),
  );

  const revokeForm = z.object({ token: z.string(), token_type_hint: z.enum(['access_token', 'refresh_token']).optional(), client_id: z.string() });
  router.post('/oauth/revoke', contract({ summary: 'RFC 7009: the client revokes a token and the grant behind it', access: 'public', body: revokeForm, form: 'only', errors: 'oauth', responses: { 200: null }, refusals: [400, 401] }), async (ctx) =>
    oauthErrors(ctx, async () => {
      const params = formOf(ctx);
      required(params, 'token');
      const client = publicClient(params);
      const refreshGrant = grantIdOf(params.token!);
      const claims = refreshGrant ? null : services.tokens.verify(params.token!);
      const grantId = refreshGrant ?? claims?.grantId;
      ctx.status = 200;
      ctx.body = '';
      // RFC 7009 §2.2: a token that is invalid, unknown or not this client's is answered like any other.
      if (!grantId || (claims && claims.clientId !== client.id)) return;
      try {
        const by = refreshGrant ? { by: 'client' as const, clientId: client.id, presentedHash: hashSecret(params.token!) } : { by: 'client' as const, clientId: client.id };
        const result = await services.commands.handle(grantDecider, grantStream(grantId), { type: 'RevokeGrant', data: by, metadata: metadata() });
        await progress.waitFor(result.position);
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'oauth.grant_gone')) throw error;
      }
    }),
  );

  router.get('/oauth/grants', contract({ summary: 'The apps the user authorised and has not revoked', access: 'user', responses: { 200: authorisedApps } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const docs = await grants().find({ user_id: user.id, status: 'active' }, { sort: { last_used_at: -1 }, limit: 200 });
    ctx.body = {
      grants: docs.filter((doc) => !changedPasswordSince(user.doc, doc.issued_at)).map((doc) => {
        const client = clients.find(doc.client_id);
        return { id: doc._id, client_id: doc.client_id, client_name: client?.name ?? doc.client_id, client_name_en: client?.nameEn ?? client?.name ?? doc.client_id, scope: doc.scope, granted_at: doc.granted_at, last_used_at: doc.last_used_at };
      }),
    };
  });

  router.delete('/oauth/grants/:id', contract({ summary: 'The user revokes an app: its tokens stop working at once', access: 'user', params: grantParams, responses: { 200: revokedReply }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, grantParams);
    const result = await services.commands.handle(grantDecider, grantStream(id), { type: 'RevokeGrant', data: { by: 'user', actorId: user.id }, metadata: metadata(user.id) });
    await progress.waitFor(result.position);
    ctx.body = { id, status: 'revoked' };
  });

  return router;
}
