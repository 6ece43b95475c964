import type { AppSignIns, AuthorisedApps, AuthorizeAnswerReply, AuthorizeBody, AuthorizeQuery, AuthorizeRequestDto, OAuthMetadata, RevokedReply } from '@scriptorium/domain/protocol/http/oauth';
import { api, request } from '../api/client.ts';

/** The parameters of an authorisation request the consent page passes on as it received them (RFC 6749 §4.1.1). */
export const AUTHORIZE_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const satisfies ReadonlyArray<keyof AuthorizeQuery>;
export type AuthorizeParams = AuthorizeQuery;

export type { AppSignIn, AuthorisedApp, AuthorizeRequestDto, OAuthClientDto } from '@scriptorium/domain/protocol/http/oauth';

export const oauthApi = {
  request: (params: AuthorizeParams) => api.get<AuthorizeRequestDto, AuthorizeQuery>('/oauth/authorize', { query: params }),
  answer: (params: AuthorizeParams, decision: AuthorizeBody['decision']) => api.post<AuthorizeAnswerReply, AuthorizeBody>('/oauth/authorize', { json: { ...params, decision } }),
  apps: () => api.get<AuthorisedApps>('/oauth/grants'),
  revoke: (id: string) => api.delete<RevokedReply>(`/oauth/grants/${encodeURIComponent(id)}`),
  signIns: () => api.get<AppSignIns>('/auth/app-sign-ins'),
  endSignIn: (id: string) => api.delete<RevokedReply>(`/auth/app-sign-ins/${encodeURIComponent(id)}`),
  /** RFC 8414 metadata, outside `/backend`: its issuer is the address users reach the server at (PUBLIC_URL when set). */
  metadata: () => request<OAuthMetadata>('GET', '/.well-known/oauth-authorization-server', { base: '' }),
};

/** Leaves the app for the client's redirect; the one place the page navigates away from the product. */
export const leaveFor = (url: string): void => window.location.assign(url);
