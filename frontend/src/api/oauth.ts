import type { AppSignIns, AuthorisedApps, AuthorizeAnswerReply, AuthorizeRequestDto, OAuthMetadata, RevokedReply } from '@scriptorium/domain/protocol/http/oauth';
import { api } from './client.ts';

/** The parameters of an authorisation request the consent page passes on as it received them (RFC 6749 §4.1.1). */
export const AUTHORIZE_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;
export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMS)[number], string>>;

export type { AppSignIn, AuthorisedApp, AuthorizeRequestDto, OAuthClientDto } from '@scriptorium/domain/protocol/http/oauth';

export const oauthApi = {
  request: (params: AuthorizeParams) => api.get<AuthorizeRequestDto>('/oauth/authorize', { query: params }),
  answer: (params: AuthorizeParams, decision: 'approve' | 'deny') => api.post<AuthorizeAnswerReply>('/oauth/authorize', { json: { ...params, decision } }),
  apps: () => api.get<AuthorisedApps>('/oauth/grants'),
  revoke: (id: string) => api.delete<RevokedReply>(`/oauth/grants/${encodeURIComponent(id)}`),
  signIns: () => api.get<AppSignIns>('/auth/app-sign-ins'),
  endSignIn: (id: string) => api.delete<RevokedReply>(`/auth/app-sign-ins/${encodeURIComponent(id)}`),
  /** RFC 8414 metadata, outside `/backend`: its issuer is the address users reach the server at (PUBLIC_URL when set). */
  metadata: async (): Promise<OAuthMetadata> => {
    const response = await fetch('/.well-known/oauth-authorization-server', { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`oauth metadata: ${response.status}`);
    return (await response.json()) as OAuthMetadata;
  },
};

/** Leaves the app for the client's redirect; the one place the page navigates away from the product. */
export const leaveFor = (url: string): void => window.location.assign(url);
