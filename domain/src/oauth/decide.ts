import { timingSafeEqual } from 'node:crypto';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { refuse } from '../refuse.ts';
import { evolve, initialState, type Grant, type OAuthEvent } from './grant.ts';
import { s256, VERIFIER } from './secrets.ts';

export type IssueCode = Command<
  'IssueCode',
  { grantId: string; userId: string; clientId: string; scope: string; redirectUri: string; codeHash: string; codeChallenge: string; ttlSeconds: number }
>;
export type ExchangeCode = Command<
  'ExchangeCode',
  { codeHash: string; clientId: string; redirectUri: string; codeVerifier: string; refreshHash: string; refreshTtlSeconds: number }
>;
export type RotateRefresh = Command<'RotateRefresh', { presentedHash: string; clientId: string; refreshHash: string; refreshTtlSeconds: number }>;
/**
 * By the user from the status dialog (`actorId` must own it), or by the client through RFC 7009: its
 * `clientId` must match, and `presentedHash` be one of the grant's refresh tokens (absent when it
 * presented an access token, whose signature the caller checked).
 */
export type RevokeGrant = Command<'RevokeGrant', { by: 'user'; actorId: string } | { by: 'client'; clientId: string; presentedHash?: string }>;
/** An access token of the grant was used; only an active grant records it. */
export type RecordGrantUse = Command<'RecordGrantUse', Record<string, never>>;
export type OAuthCommand = IssueCode | ExchangeCode | RotateRefresh | RevokeGrant | RecordGrantUse;

const later = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export const issueCode = (command: IssueCode, state: Grant): OAuthEvent[] => {
  if (state.status !== 'none') throw refuse('conflict', 'oauth.invalid_request');
  const { ttlSeconds, ...data } = command.data;
  const now = command.metadata.now;
  return [{ type: 'OAuthCodeIssued', data: { ...data, issuedAt: now.toISOString(), expiresAt: later(now, ttlSeconds) } }];
};

/**
 * The code once, by the client it was issued to, before it expires, from the redirect it was sent to,
 * with the verifier of its challenge. A code presented again after its exchange revokes the grant (and
 * with it every token the first exchange issued), and is still refused: the caller tells the two apart
 * by whether events came back.
 */
export const exchangeCode = (command: ExchangeCode, state: Grant): OAuthEvent[] => {
  const { codeHash, clientId, redirectUri, codeVerifier, refreshHash, refreshTtlSeconds } = command.data;
  if (state.status === 'none' || !same(state.codeHash, codeHash) || state.clientId !== clientId) throw refuse('invalid', 'oauth.invalid_grant');
  const now = command.metadata.now;
  if (state.status === 'active') return [{ type: 'OAuthGrantRevoked', data: { grantId: state.grantId, userId: state.userId, reason: 'code_reused', revokedAt: now.toISOString() } }];
  if (state.status === 'revoked') throw refuse('invalid', 'oauth.code_reused');
  if (now.getTime() >= Date.parse(state.codeExpiresAt)) throw refuse('invalid', 'oauth.code_expired');
  if (redirectUri !== state.redirectUri) throw refuse('invalid', 'oauth.redirect_mismatch');
  if (!VERIFIER.test(codeVerifier) || !same(s256(codeVerifier), state.codeChallenge)) throw refuse('invalid', 'oauth.pkce_mismatch');
  return [{ type: 'OAuthCodeExchanged', data: { grantId: state.grantId, refreshHash, refreshExpiresAt: later(now, refreshTtlSeconds), exchangedAt: now.toISOString() } }];
};

/** The current refresh token buys a new one and retires itself; a retired one presented again ends the grant. */
export const rotateRefresh = (command: RotateRefresh, state: Grant): OAuthEvent[] => {
  const { presentedHash, clientId, refreshHash, refreshTtlSeconds } = command.data;
  if (state.status === 'none' || state.status === 'issued' || state.clientId !== clientId) throw refuse('invalid', 'oauth.invalid_grant');
  const now = command.metadata.now;
  const retired = state.retiredRefreshHashes.some((hash) => same(hash, presentedHash));
  if (state.status === 'revoked') throw refuse('invalid', retired ? 'oauth.grant_revoked' : 'oauth.invalid_grant');
  if (retired) return [{ type: 'OAuthGrantRevoked', data: { grantId: state.grantId, userId: state.userId, reason: 'refresh_reused', revokedAt: now.toISOString() } }];
  if (!same(state.refreshHash, presentedHash)) throw refuse('invalid', 'oauth.invalid_grant');
  if (now.getTime() >= Date.parse(state.refreshExpiresAt)) throw refuse('invalid', 'oauth.refresh_expired');
  return [{ type: 'OAuthRefreshRotated', data: { grantId: state.grantId, refreshHash, refreshExpiresAt: later(now, refreshTtlSeconds), rotatedAt: now.toISOString() } }];
};

export const revokeGrant = (command: RevokeGrant, state: Grant): OAuthEvent[] => {
  const by = command.data;
  const holds = (hash: string | undefined) =>
    hash === undefined || (state.status === 'active' && same(state.refreshHash, hash)) || (state.status !== 'none' && state.status !== 'issued' && state.retiredRefreshHashes.some((old) => same(old, hash)));
  const owns = state.status !== 'none' && (by.by === 'user' ? state.userId === by.actorId : state.clientId === by.clientId && holds(by.presentedHash));
  if (state.status === 'none' || !owns) throw refuse('not_found', 'oauth.grant_gone');
  if (state.status === 'revoked') return [];
  return [{ type: 'OAuthGrantRevoked', data: { grantId: state.grantId, userId: state.userId, reason: by.by, revokedAt: command.metadata.now.toISOString() } }];
};

export const recordGrantUse = (command: RecordGrantUse, state: Grant): OAuthEvent[] =>
  state.status === 'active' ? [{ type: 'OAuthGrantUsed', data: { grantId: state.grantId, usedAt: command.metadata.now.toISOString() } }] : [];

export function decide(command: OAuthCommand, state: Grant): OAuthEvent[] {
  switch (command.type) {
    case 'IssueCode':
      return issueCode(command, state);
    case 'ExchangeCode':
      return exchangeCode(command, state);
    case 'RotateRefresh':
      return rotateRefresh(command, state);
    case 'RevokeGrant':
      return revokeGrant(command, state);
    case 'RecordGrantUse':
      return recordGrantUse(command, state);
    default:
      return assertNever(command);
  }
}

export const grantDecider: Decider<Grant, OAuthCommand, OAuthEvent> = { initialState, evolve, decide };
