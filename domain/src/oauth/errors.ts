import type { ErrorCode } from '../protocol/errors.ts';

/** The `error` values of RFC 6749 §4.1.2.1 and §5.2 that this server answers with. */
export type RfcError = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_scope' | 'access_denied' | 'unsupported_response_type' | 'server_error';

type OAuthCode = Extract<ErrorCode, `oauth.${string}`>;

/** Each catalogue refusal of the OAuth endpoints as the RFC names it; the catalogue keeps the finer reason. */
export const RFC_ERROR: Record<OAuthCode, RfcError> = {
  'oauth.invalid_request': 'invalid_request',
  'oauth.invalid_client': 'invalid_client',
  'oauth.invalid_redirect': 'invalid_request',
  'oauth.unsupported_response_type': 'unsupported_response_type',
  'oauth.pkce_required': 'invalid_request',
  'oauth.invalid_scope': 'invalid_scope',
  'oauth.unsupported_grant_type': 'unsupported_grant_type',
  'oauth.invalid_grant': 'invalid_grant',
  'oauth.code_expired': 'invalid_grant',
  'oauth.code_reused': 'invalid_grant',
  'oauth.redirect_mismatch': 'invalid_grant',
  'oauth.pkce_mismatch': 'invalid_grant',
  'oauth.refresh_expired': 'invalid_grant',
  'oauth.grant_revoked': 'invalid_grant',
  'oauth.account_inactive': 'invalid_grant',
  'oauth.grant_gone': 'invalid_grant',
};

export const isOAuthCode = (code: string): code is OAuthCode => code in RFC_ERROR;
