import { refuse } from '../refuse.ts';

/**
 * What a client may ask for (space-separated, RFC 6749 §3.3). `account`: everything a signed-in
 * browser may do, what a client gets that names no scope (as all did before scopes). `engineer`: the
 * AI-engineer sessions and their socket, trajectories and the assistant's model endpoint, and reading
 * who the user is; what the command-line assistant needs. `audit:read`: the audit reads, which still
 * need the auditor or administrator role. Which routes each opens is the api's (`http/scopes.ts`).
 */
export const SCOPES = ['account', 'engineer', 'audit:read'] as const;
export type Scope = (typeof SCOPES)[number];
export const DEFAULT_SCOPE: Scope = 'account';

const isScope = (name: string): name is Scope => (SCOPES as readonly string[]).includes(name);

/** The scopes a request asks for, in the canonical order, or null when it names one that does not exist. */
export function requestedScopes(scope: string | undefined): Scope[] | null {
  const names = (scope ?? '').split(' ').filter(Boolean);
  if (names.length === 0) return [DEFAULT_SCOPE];
  if (!names.every(isScope)) return null;
  return SCOPES.filter((known) => names.includes(known));
}

/** A public client (RFC 6749 §2.1): no secret, identified by its id and held to its redirect URIs. */
export interface OAuthClient {
  id: string;
  name: string;
  nameEn?: string;
  /** Compared as exact strings, except a native client's loopback ones (below). */
  redirectUris: string[];
  /** A native app (RFC 8252): its registered loopback redirects accept any port. */
  native: boolean;
}

/** The command-line assistant: it listens on a port the system picks, so its redirects are loopback ones. */
export const CLI_CLIENT: OAuthClient = {
  id: 'scriptorium-cli',
  name: 'Scriptorium 命令行助手',
  nameEn: 'Scriptorium command-line assistant',
  redirectUris: ['http://127.0.0.1/callback', 'http://[::1]/callback'],
  native: true,
};

const LOOPBACK = new Set(['127.0.0.1', '[::1]']);

/**
 * RFC 8252 §7.3: a native client's loopback redirect matches a registered one whatever its port
 * (`localhost` is not a loopback literal and is refused, §8.3). Everything else matches exactly.
 */
export function redirectAllowed(client: OAuthClient, redirectUri: string): boolean {
  if (client.redirectUris.includes(redirectUri)) return true;
  if (!client.native) return false;
  let uri: URL;
  try {
    uri = new URL(redirectUri);
  } catch {
    return false;
  }
  if (uri.protocol !== 'http:' || !LOOPBACK.has(uri.hostname) || uri.username || uri.password || uri.hash || redirectUri.includes('#')) return false;
  return client.redirectUris.some((registered) => {
    const known = new URL(registered);
    return known.protocol === 'http:' && known.hostname === uri.hostname && known.port === '' && known.pathname === uri.pathname && known.search === uri.search;
  });
}

export class ClientRegistry {
  private readonly byId: Map<string, OAuthClient>;

  constructor(clients: OAuthClient[]) {
    this.byId = new Map(clients.map((client) => [client.id, client]));
  }

  find(clientId: string | undefined): OAuthClient | undefined {
    return clientId === undefined ? undefined : this.byId.get(clientId);
  }

  /** The client and its redirect, or the refusal the consent page shows (never a redirect: it could be anyone's). */
  resolve(clientId: string | undefined, redirectUri: string | undefined): { client: OAuthClient; redirectUri: string } {
    const client = this.find(clientId);
    if (!client) throw refuse('invalid', 'oauth.invalid_client');
    if (redirectUri === undefined || !redirectAllowed(client, redirectUri)) throw refuse('invalid', 'oauth.invalid_redirect');
    return { client, redirectUri };
  }
}
