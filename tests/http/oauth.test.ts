import test from 'ava';
import * as oauth from 'oauth4webapi';
import { userDecider, userStream } from '@scriptorium/domain/user/decide';
import { client as httpClient, signUp, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { eventually } from '../support/poll.ts';
import { openSocketAt } from '../support/socket.ts';

/**
 * The authorisation server as a client nobody here wrote sees it: oauth4webapi discovers the metadata,
 * makes the PKCE pair, checks the authorisation response (state and RFC 9207 `iss`) and exchanges the
 * code. The test plays the browser on the consent page with a signed-in user's token.
 */

const insecure = { [oauth.allowInsecureRequests]: true };
const cli: oauth.Client = { client_id: 'scriptorium-cli' };
const REDIRECT = 'http://127.0.0.1:53682/callback';

let app: TestApp;
let as: oauth.AuthorizationServer;
let alice: Client & { userId: string };

test.before(async () => {
  app = await startTestApp({ OAUTH_CLIENTS: JSON.stringify([{ id: 'web-app', name: '网页应用', name_en: 'Web app', redirect_uris: ['https://app.example/cb'] }]) });
  const issuer = new URL(app.url);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  alice = await signUp(app.url, 'alice');
});
test.after.always(async () => {
  await app?.stop();
});

interface Started {
  verifier: string;
  state: string;
  params: Record<string, string>;
}

async function start(overrides: Record<string, string> = {}): Promise<Started> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const params = {
    response_type: 'code',
    client_id: cli.client_id,
    redirect_uri: REDIRECT,
    scope: 'account',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...overrides,
  };
  return { verifier, state, params };
}

/** What the consent page does: ask what the request means, then send the user's answer, and follow the redirect it is given. */
async function consent(user: Client, started: Started, decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
  const shown = await user.request('GET', `/backend/oauth/authorize?${new URLSearchParams(started.params)}`);
  if (shown.status !== 200 || shown.body.status !== 'consent') throw new Error(`consent page: ${shown.status} ${JSON.stringify(shown.body)}`);
  const answered = await user.request('POST', '/backend/oauth/authorize', { ...started.params, decision });
  if (answered.status !== 200) throw new Error(`consent: ${answered.status} ${JSON.stringify(answered.body)}`);
  return new URL(answered.body.redirect_to);
}

async function exchange(started: Started, callback: URL, verifier = started.verifier) {
  const params = oauth.validateAuthResponse(as, cli, callback, started.state);
  const response = await oauth.authorizationCodeGrantRequest(as, cli, oauth.None(), params, REDIRECT, verifier, insecure);
  return oauth.processAuthorizationCodeResponse(as, cli, response);
}

async function signedIn(user: Client = alice, overrides: Record<string, string> = {}) {
  const started = await start(overrides);
  return exchange(started, await consent(user, started));
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof oauth.ResponseBodyError)) throw new Error(`expected an OAuth error response, got ${String(error)}`);
  return { error: error.error, status: error.status, description: error.error_description, code: error.cause.code };
};

const me = (token: string) => httpClient(app.url, token).request('GET', '/backend/auth/me');

test.serial('metadata names this server as the issuer and what it supports (RFC 8414)', async (t) => {
  t.is(as.issuer, app.url);
  t.like(as, {
    authorization_endpoint: `${app.url}/oauth/authorize`,
    token_endpoint: `${app.url}/backend/oauth/token`,
    revocation_endpoint: `${app.url}/backend/oauth/revoke`,
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
  });
});

test.serial('the full PKCE flow gives a product access token carrying the client, and a refresh token', async (t) => {
  const tokens = await signedIn();
  t.is(tokens.token_type, 'bearer');
  t.is(tokens.expires_in, 3600);
  t.is(tokens.scope, 'account');
  t.truthy(tokens.refresh_token);
  const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString());
  t.like(claims, { sub: alice.userId, client_id: 'scriptorium-cli', typ: 'access' });
  t.like((await me(tokens.access_token)).body, { username: 'alice' }, 'every route accepts it');

  const listed = (await alice.request('GET', '/backend/oauth/grants')).body.grants;
  const grant = listed.find((row: { id: string }) => row.id === claims.grant);
  t.like(grant, { client_id: 'scriptorium-cli', client_name: 'Scriptorium 命令行助手', client_name_en: 'Scriptorium command-line assistant', scope: 'account' });
  t.truthy(grant.granted_at);
  t.is(grant.last_used_at, grant.granted_at);
});

test.serial("an app's \"last used\" follows its calls, recorded at most every five minutes", async (t) => {
  const tokens = await signedIn();
  const grantId = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()).grant as string;
  const lastUsed = async () => ((await alice.request('GET', '/backend/oauth/grants')).body.grants as Array<{ id: string; last_used_at: string }>).find((row) => row.id === grantId)!.last_used_at;
  const granted = await lastUsed();
  const realClock = app.services.clock;
  const later = new Date(Date.parse(granted) + 6 * 60_000);
  app.services.clock = () => later;
  try {
    t.is((await me(tokens.access_token)).status, 200);
    // Recorded beside the call, not before its answer.
    await eventually(async () => ((await lastUsed()) === later.toISOString() ? true : undefined), 10_000, 'the new "last used"');
    t.is((await me(tokens.access_token)).status, 200);
    await app.settle();
  } finally {
    app.services.clock = realClock;
  }
  const uses = (await app.services.events.readStream(`oauthgrant-${grantId}`)).filter((event) => event.type === 'OAuthGrantUsed');
  t.is(uses.length, 1, 'the second call within five minutes records nothing');
});

test.serial('a wrong verifier is refused and leaves the code for the right one', async (t) => {
  const started = await start();
  const callback = await consent(alice, started);
  const wrong = await refusal(exchange(started, callback, oauth.generateRandomCodeVerifier()));
  t.like(wrong, { error: 'invalid_grant', status: 400, code: 'oauth.pkce_mismatch' });
  t.truthy((await exchange(started, callback)).access_token);
});

test.serial('a code used twice is refused, and the tokens of its first exchange stop working (RFC 6749 §4.1.2)', async (t) => {
  const started = await start();
  const callback = await consent(alice, started);
  const first = await exchange(started, callback);
  t.is((await me(first.access_token)).status, 200);
  const again = await refusal(exchange(started, callback));
  t.like(again, { error: 'invalid_grant', code: 'oauth.code_reused' });
  t.is((await me(first.access_token)).status, 401, 'the access token is revoked with its grant');
  const refreshed = await refusal(oauth.refreshTokenGrantRequest(as, cli, oauth.None(), first.refresh_token!, insecure).then((response) => oauth.processRefreshTokenResponse(as, cli, response)));
  t.is(refreshed.error, 'invalid_grant');
});

test.serial('an unregistered redirect or client gets an error page, never a redirect', async (t) => {
  const unregistered: Record<string, string>[] = [{ redirect_uri: 'http://evil.example/callback' }, { redirect_uri: 'http://localhost:53682/callback' }, { client_id: 'nobody' }, { client_id: 'web-app', redirect_uri: 'https://app.example/cb/other' }];
  for (const params of unregistered) {
    const started = await start(params);
    const shown = await alice.request('GET', `/backend/oauth/authorize?${new URLSearchParams(started.params)}`);
    t.is(shown.status, 400);
    t.true(['oauth.invalid_redirect', 'oauth.invalid_client'].includes(shown.body.code), JSON.stringify(shown.body));
    t.is(shown.body.redirect_to, undefined);
    const answered = await alice.request('POST', '/backend/oauth/authorize', { ...started.params, decision: 'approve' });
    t.is(answered.status, 400);
  }
  // A registered web client's exact redirect works (and its refusals go back to it).
  const started = await start({ client_id: 'web-app', redirect_uri: 'https://app.example/cb' });
  const shown = await alice.request('GET', `/backend/oauth/authorize?${new URLSearchParams(started.params)}`);
  t.like(shown.body, { status: 'consent', client: { id: 'web-app', name: '网页应用', name_en: 'Web app' }, scopes: ['account'] });
});

test.serial('other request errors and a denial go back to the redirect with state and iss (RFC 6749 §4.1.2.1)', async (t) => {
  const cases: [Record<string, string>, string][] = [
    [{ code_challenge_method: 'plain' }, 'invalid_request'],
    [{ code_challenge: '' }, 'invalid_request'],
    [{ response_type: 'token' }, 'unsupported_response_type'],
    [{ scope: 'admin' }, 'invalid_scope'],
  ];
  for (const [overrides, error] of cases) {
    const started = await start(overrides);
    const shown = await alice.request('GET', `/backend/oauth/authorize?${new URLSearchParams(started.params)}`);
    t.is(shown.body.status, 'error');
    const url = new URL(shown.body.redirect_to);
    t.is(`${url.origin}${url.pathname}`, REDIRECT);
    t.is(url.searchParams.get('error'), error, JSON.stringify(overrides));
    t.is(url.searchParams.get('state'), started.state);
    t.is(url.searchParams.get('iss'), app.url);
  }
  const started = await start();
  const denied = await consent(alice, started, 'deny');
  const error = t.throws(() => oauth.validateAuthResponse(as, cli, denied, started.state), { instanceOf: oauth.AuthorizationResponseError });
  t.is(error?.error, 'access_denied');
});

test.serial('a code is refused once it is older than 60 seconds', async (t) => {
  const started = await start();
  const callback = await consent(alice, started);
  const realClock = app.services.clock;
  app.services.clock = () => new Date(Date.now() + 61_000);
  try {
    t.like(await refusal(exchange(started, callback)), { error: 'invalid_grant', code: 'oauth.code_expired' });
  } finally {
    app.services.clock = realClock;
  }
});

const refresh = (token: string) => oauth.refreshTokenGrantRequest(as, cli, oauth.None(), token, insecure).then((response) => oauth.processRefreshTokenResponse(as, cli, response));

test.serial('a refresh token rotates on use; the retired one presented again ends the grant', async (t) => {
  const first = await signedIn();
  const second = await refresh(first.refresh_token!);
  t.not(second.refresh_token, first.refresh_token);
  t.is((await me(second.access_token)).status, 200);
  const third = await refresh(second.refresh_token!);
  t.truthy(third.access_token);
  t.like(await refusal(refresh(first.refresh_token!)), { error: 'invalid_grant', code: 'oauth.grant_revoked' });
  t.is((await me(third.access_token)).status, 401, 'a replayed refresh token revokes the grant and its tokens');
  t.like(await refusal(refresh(third.refresh_token!)), { error: 'invalid_grant' });
});

test.serial('the client revokes by refresh or access token (RFC 7009); the user revokes from the list', async (t) => {
  const byRefresh = await signedIn();
  await oauth.processRevocationResponse(await oauth.revocationRequest(as, cli, oauth.None(), byRefresh.refresh_token!, insecure));
  t.is((await me(byRefresh.access_token)).status, 401);
  t.like(await refusal(refresh(byRefresh.refresh_token!)), { error: 'invalid_grant' });

  const byAccess = await signedIn();
  await oauth.processRevocationResponse(await oauth.revocationRequest(as, cli, oauth.None(), byAccess.access_token, insecure));
  t.is((await me(byAccess.access_token)).status, 401);
  // An unknown token is answered like any other, and changes nothing.
  await app.settle();
  const head = await app.services.events.headPosition();
  await oauth.processRevocationResponse(await oauth.revocationRequest(as, cli, oauth.None(), 'not-a-token', insecure));
  t.is(await app.services.events.headPosition(), head);

  const byUser = await signedIn();
  const grantId = JSON.parse(Buffer.from(byUser.access_token.split('.')[1]!, 'base64url').toString()).grant;
  const bob = await signUp(app.url, 'bob');
  t.is((await bob.request('DELETE', `/backend/oauth/grants/${grantId}`)).status, 404, 'nobody else finds it');
  t.is((await alice.request('DELETE', `/backend/oauth/grants/${grantId}`)).status, 200);
  t.is((await me(byUser.access_token)).status, 401);
  const listed = (await alice.request('GET', '/backend/oauth/grants')).body.grants;
  t.false(listed.some((row: { id: string }) => row.id === grantId));
});

test.serial('the token endpoint answers in RFC 6749 §5.2 shape', async (t) => {
  const anonymous = httpClient(app.url);
  const post = (body: Record<string, string>) => anonymous.request('POST', '/backend/oauth/token', body, { form: true });
  t.like(await post({ grant_type: 'refresh_token', refresh_token: 'x', client_id: 'nobody' }), { status: 401, body: { error: 'invalid_client' } });
  t.like(await post({ grant_type: 'password', client_id: 'scriptorium-cli', username: 'alice', password: 'x' }), { status: 400, body: { error: 'unsupported_grant_type' } });
  t.like(await post({ grant_type: 'authorization_code', client_id: 'scriptorium-cli' }), { status: 400, body: { error: 'invalid_request' } });
  const json = await anonymous.request('POST', '/backend/oauth/token', { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'scriptorium-cli' });
  t.like(json, { status: 400, body: { error: 'invalid_request' } }, 'the body must be a form');
  const refused = await post({ grant_type: 'refresh_token', refresh_token: 'x', client_id: 'scriptorium-cli' });
  t.is(refused.headers.get('cache-control'), 'no-store');
  t.regex(refused.body.error_description, /^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/, 'the description is in the characters RFC 6749 allows');
});

test.serial('a password changed after the approval ends the grant, as it ends every sign-in', async (t) => {
  const carol = await signUp(app.url, 'carol');
  const before = await signedIn(carol);
  const passwordHash = await app.services.passwords.hash('a new password for carol');
  await app.services.commands.handle(userDecider, userStream(carol.userId), { type: 'ChangePassword', data: { passwordHash, reason: 'changed' }, metadata: { now: new Date() } });
  await app.settle();
  t.is((await me(before.access_token)).status, 401);
  t.like(await refusal(refresh(before.refresh_token!)), { error: 'invalid_grant', code: 'oauth.grant_revoked' });
  const login = await httpClient(app.url).request('POST', '/backend/auth/login', { username: 'carol', password: 'a new password for carol' }, { form: true });
  const again = httpClient(app.url, login.body.access_token);
  const after = await signedIn(again);
  const listed = (await again.request('GET', '/backend/oauth/grants')).body.grants;
  t.deepEqual(listed.map((row: { id: string }) => row.id), [JSON.parse(Buffer.from(after.access_token.split('.')[1]!, 'base64url').toString()).grant], 'only the grant approved since is listed');
});

test.serial('a token for the engineer scope reaches the engineer routes and socket only: no account changes, no admin, no chats (RFC 6750 insufficient_scope)', async (t) => {
  const tokens = await signedIn(alice, { scope: 'engineer' });
  t.is(tokens.scope, 'engineer');
  const cliApp = httpClient(app.url, tokens.access_token);
  t.is((await me(tokens.access_token)).status, 200, 'it may say who it is');
  const session = await cliApp.request('POST', '/backend/api/ai-engineer/sessions', { title: 'cli' });
  t.is(session.status, 201);
  t.is((await cliApp.request('GET', '/backend/engineer/trajectory/files')).status, 200);
  const socket = await openSocketAt(app.url, `/backend/api/ai-engineer/ws/sessions/${session.body.id}`, tokens.access_token);
  await socket.next((message) => message.type === 'subscribed');
  socket.close();

  const refused = [
    await cliApp.request('PATCH', `/backend/users/${alice.userId}`, { nickname: 'taken over' }),
    await cliApp.request('GET', '/backend/oauth/grants'),
    await cliApp.request('POST', '/backend/conversation/sessions', { client_id: 'client-cli' }),
    await cliApp.request('GET', '/backend/auth/admin/users'),
    await cliApp.request('DELETE', `/backend/auth/app-sign-ins/${'a'.repeat(32)}`),
  ];
  for (const answer of refused) {
    t.is(answer.status, 403);
    t.is(answer.body.code, 'auth.scope_insufficient');
    t.regex(answer.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/);
  }
  const chat = await openSocketAt(app.url, '/backend/conversation/ws/client-cli', tokens.access_token);
  t.is((await chat.closed).code, 4403);
  t.is((await alice.request('GET', '/backend/auth/me')).body.nickname, 'alice', 'nothing changed');
});

test.serial('an unknown scope is refused; no scope asks for the whole account, as clients did before scopes', async (t) => {
  const unknown = await start({ scope: 'engineer admin' });
  const shown = await alice.request('GET', `/backend/oauth/authorize?${new URLSearchParams(unknown.params)}`);
  t.like(shown.body, { status: 'error' });
  t.is(new URL(shown.body.redirect_to).searchParams.get('error'), 'invalid_scope');
  const started = await start();
  const { scope: _omitted, ...params } = started.params;
  started.params = params;
  t.is((await exchange(started, await consent(alice, started))).scope, 'account');
  t.deepEqual(as.scopes_supported, ['account', 'engineer', 'audit:read']);
});
