import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/**
 * One authorisation a user gave one client (`oauthgrant-<id>`): the code the consent screen issued,
 * the refresh token that code was exchanged for, each rotation of it, and its end. Codes and refresh
 * tokens carry the grant id before a dot, so the token endpoint finds the stream without a read model,
 * and only their SHA-256 is ever recorded.
 */
export type OAuthCodeIssued = DomainEvent<
  'OAuthCodeIssued',
  { grantId: string; userId: string; clientId: string; scope: string; redirectUri: string; codeHash: string; codeChallenge: string; issuedAt: string; expiresAt: string }
>;
export type OAuthCodeExchanged = DomainEvent<'OAuthCodeExchanged', { grantId: string; refreshHash: string; refreshExpiresAt: string; exchangedAt: string }>;
export type OAuthRefreshRotated = DomainEvent<'OAuthRefreshRotated', { grantId: string; refreshHash: string; refreshExpiresAt: string; rotatedAt: string }>;
/** `code_reused` and `refresh_reused`: a replayed secret ends what it issued (RFC 6749 §4.1.2, OAuth 2.0 Security BCP §4.14). */
export type RevocationReason = 'user' | 'client' | 'code_reused' | 'refresh_reused';
export type OAuthGrantRevoked = DomainEvent<'OAuthGrantRevoked', { grantId: string; userId: string; reason: RevocationReason; revokedAt: string }>;
/** The app's token was used (recorded at most every few minutes), so "last used" stays current between refreshes. */
export type OAuthGrantUsed = DomainEvent<'OAuthGrantUsed', { grantId: string; usedAt: string }>;
export type OAuthEvent = OAuthCodeIssued | OAuthCodeExchanged | OAuthRefreshRotated | OAuthGrantRevoked | OAuthGrantUsed;

interface GrantDetails {
  grantId: string;
  userId: string;
  clientId: string;
  scope: string;
  redirectUri: string;
  codeHash: string;
  /** When the user approved: a password changed later ends the grant as it ends every sign-in. */
  issuedAt: string;
}

export type Grant =
  | { status: 'none' }
  | ({ status: 'issued'; codeChallenge: string; codeExpiresAt: string } & GrantDetails)
  | ({ status: 'active'; refreshHash: string; refreshExpiresAt: string; retiredRefreshHashes: string[] } & GrantDetails)
  | ({ status: 'revoked'; reason: RevocationReason; retiredRefreshHashes: string[] } & GrantDetails);

export const initialState = (): Grant => ({ status: 'none' });

const details = (state: Exclude<Grant, { status: 'none' }>): GrantDetails => {
  const { grantId, userId, clientId, scope, redirectUri, codeHash, issuedAt } = state;
  return { grantId, userId, clientId, scope, redirectUri, codeHash, issuedAt };
};

export function evolve(state: Grant, event: OAuthEvent): Grant {
  switch (event.type) {
    case 'OAuthCodeIssued': {
      const { grantId, userId, clientId, scope, redirectUri, codeHash, codeChallenge, issuedAt, expiresAt } = event.data;
      return { status: 'issued', grantId, userId, clientId, scope, redirectUri, codeHash, codeChallenge, issuedAt, codeExpiresAt: expiresAt };
    }
    case 'OAuthCodeExchanged':
      if (state.status !== 'issued') return state;
      return { status: 'active', ...details(state), refreshHash: event.data.refreshHash, refreshExpiresAt: event.data.refreshExpiresAt, retiredRefreshHashes: [] };
    case 'OAuthRefreshRotated':
      if (state.status !== 'active') return state;
      return { ...state, refreshHash: event.data.refreshHash, refreshExpiresAt: event.data.refreshExpiresAt, retiredRefreshHashes: [...state.retiredRefreshHashes, state.refreshHash] };
    case 'OAuthGrantUsed':
      return state;
    case 'OAuthGrantRevoked': {
      if (state.status === 'none' || state.status === 'revoked') return state;
      const retired = state.status === 'active' ? [...state.retiredRefreshHashes, state.refreshHash] : [];
      return { status: 'revoked', ...details(state), reason: event.data.reason, retiredRefreshHashes: retired };
    }
    default:
      return assertNever(event);
  }
}

export const grantStream = (grantId: string): string => `oauthgrant-${grantId}`;
