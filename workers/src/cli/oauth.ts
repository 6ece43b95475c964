import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { delimiter, join } from 'node:path';
import type { CliMessages } from './messages.ts';

/**
 * The command-line assistant as an OAuth 2.0 native app (RFC 8252): it discovers the server's metadata
 * (RFC 8414), listens once on a loopback port the system picks, sends the user's browser to the
 * consent page with a PKCE S256 challenge (RFC 7636), and exchanges the code it is sent back.
 */

export const CLIENT_ID = 'scriptorium-cli';
/**
 * The narrowest scopes that serve the assistant, asked for by both of its sign-ins: its engineer
 * sessions, trajectories and model, and audit reads for an auditor (`npm run audit`); never the account itself.
 */
export const CLI_SCOPE = 'engineer audit:read';
const CALLBACK_PATH = '/callback';
/** How long the listener waits for the browser. */
const WAIT_MS = 5 * 60_000;

export interface Metadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint?: string;
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

export class OAuthFailure extends Error {}

export async function discover(server: string, texts: CliMessages): Promise<Metadata> {
  let response: Response;
  try {
    response = await fetch(new URL('/.well-known/oauth-authorization-server', server));
  } catch (error) {
    throw new OAuthFailure(texts.cannotReach(server, error instanceof Error ? error.message : String(error)));
  }
  const body = (await response.json().catch(() => ({}))) as Partial<Metadata> & { code_challenge_methods_supported?: string[] };
  if (!response.ok || !body.issuer || !body.authorization_endpoint || !body.token_endpoint) {
    throw new OAuthFailure(texts.noOAuth(server, response.status));
  }
  if (!body.code_challenge_methods_supported?.includes('S256')) throw new OAuthFailure(texts.noPkce);
  return { issuer: body.issuer, authorization_endpoint: body.authorization_endpoint, token_endpoint: body.token_endpoint, ...(body.revocation_endpoint && { revocation_endpoint: body.revocation_endpoint }) };
}

const RESULT_PAGE = (title: string, text: string) =>
  `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>${title}</title><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;line-height:1.6"><h1 style="font-size:1.25rem">${title}</h1><p>${text}</p></body></html>`;

/** A program that opens URLs on this desktop, if one is installed. */
function opener(): string | undefined {
  const names = process.platform === 'darwin' ? ['open'] : ['xdg-open'];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of names) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return join(dir, name);
      } catch {
        /* not in this directory */
      }
    }
  }
  return undefined;
}

function openInBrowser(url: string): void {
  const program = opener();
  if (!program) return;
  const child = spawn(program, [url], { detached: true, stdio: 'ignore' });
  // The printed address is the fallback: a failing opener is not an error.
  child.on('error', () => undefined);
  child.unref();
}

/**
 * Runs the authorisation request and returns the tokens. `say` prints the address to open, so a user
 * on a machine without a browser opener can still copy it.
 */
export async function authorize(metadata: Metadata, options: { openBrowser: boolean; say: (text: string) => void; texts: CliMessages }): Promise<Tokens> {
  const { texts } = options;
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  let settle!: { resolve: (params: URLSearchParams) => void; reject: (error: Error) => void };
  const arrived = new Promise<URLSearchParams>((resolve, reject) => (settle = { resolve, reject }));

  const listener = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== CALLBACK_PATH || url.searchParams.get('state') !== state) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    const error = url.searchParams.get('error');
    const [title, text] = error
      ? ['授权未完成 · Not authorised', '命令行助手没有获得授权，请回到终端查看。 The command-line assistant was not authorised; see the terminal.']
      : ['已授权 · Authorised', '命令行助手已登录，可以关闭此页面。 The command-line assistant is signed in; you can close this page.'];
    response.writeHead(error ? 400 : 200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(RESULT_PAGE(title, text));
    settle.resolve(url.searchParams);
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(0, '127.0.0.1', resolve);
  });
  const timer = setTimeout(() => settle.reject(new OAuthFailure(texts.authTimedOut)), WAIT_MS);

  try {
    const redirectUri = `http://127.0.0.1:${(listener.address() as AddressInfo).port}${CALLBACK_PATH}`;
    const url = new URL(metadata.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: redirectUri,
      scope: CLI_SCOPE,
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    options.say(texts.openToAuthorise(url.toString()));
    if (options.openBrowser) openInBrowser(url.toString());

    const params = await arrived;
    // RFC 9207: the response names who sent it, so a response from another server is not taken for this one's.
    const iss = params.get('iss');
    if (iss !== null && iss !== metadata.issuer) throw new OAuthFailure(texts.otherIssuer);
    const error = params.get('error');
    if (error === 'access_denied') throw new OAuthFailure(texts.deniedInBrowser);
    if (error) throw new OAuthFailure(texts.authFailed(params.get('error_description') ?? error));
    const code = params.get('code');
    if (!code) throw new OAuthFailure(texts.noCode);
    return await tokenRequest(metadata.token_endpoint, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: CLIENT_ID }, texts);
  } finally {
    clearTimeout(timer);
    listener.closeAllConnections();
    listener.close();
  }
}

async function tokenRequest(endpoint: string, form: Record<string, string>, texts: CliMessages): Promise<Tokens> {
  const response = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: new URLSearchParams(form) });
  const body = (await response.json().catch(() => ({}))) as Partial<Tokens> & { error?: string; error_description?: string };
  if (!response.ok || !body.access_token || !body.refresh_token) throw new OAuthFailure(texts.tokenFailed(body.error_description ?? body.error ?? `HTTP ${response.status}`));
  return { access_token: body.access_token, refresh_token: body.refresh_token, expires_in: body.expires_in ?? 3600 };
}

export const refresh = (tokenEndpoint: string, refreshToken: string, texts: CliMessages): Promise<Tokens> =>
  tokenRequest(tokenEndpoint, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: CLIENT_ID }, texts);

/** RFC 7009; the caller forgets the tokens whatever the server says. */
export const revoke = (revocationEndpoint: string, token: string): Promise<Response> =>
  fetch(revocationEndpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token, token_type_hint: 'refresh_token', client_id: CLIENT_ID }) });
