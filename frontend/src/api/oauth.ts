import { api } from './client.ts';

/** The parameters of an authorisation request the consent page passes on as it received them (RFC 6749 §4.1.1). */
export const AUTHORIZE_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;
export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMS)[number], string>>;

export interface OAuthClientDto {
  id: string;
  name: string;
  name_en: string;
}

/** A request the user can answer, or one whose problem goes back to the app (its redirect is registered). */
export type AuthorizeRequestDto = { status: 'consent'; client: OAuthClientDto; scopes: string[]; redirect_uri: string; native: boolean } | { status: 'error'; redirect_to: string };

export interface AuthorisedApp {
  id: string;
  client_id: string;
  client_name: string;
  client_name_en: string;
  scope: string;
  granted_at: string;
  last_used_at: string;
}

/** A password sign-in an app made (the command line's `login --password`), listed beside the apps authorised through OAuth. */
export interface AppSignIn {
  id: string;
  client_id: string;
  client_name: string;
  client_name_en: string;
  /** The machine it signed in from, as the app named it; may be empty. */
  device_name: string;
  /** What its token may do, as an authorised app's `scope`. */
  scope: string;
  signed_in_at: string;
  last_used_at: string;
  expires_at: string;
}

export const oauthApi = {
  request: (params: AuthorizeParams) => api.get<AuthorizeRequestDto>('/oauth/authorize', { query: params }),
  answer: (params: AuthorizeParams, decision: 'approve' | 'deny') => api.post<{ redirect_to: string }>('/oauth/authorize', { json: { ...params, decision } }),
  apps: () => api.get<{ grants: AuthorisedApp[] }>('/oauth/grants'),
  revoke: (id: string) => api.delete<unknown>(`/oauth/grants/${encodeURIComponent(id)}`),
  signIns: () => api.get<{ sign_ins: AppSignIn[] }>('/auth/app-sign-ins'),
  endSignIn: (id: string) => api.delete<unknown>(`/auth/app-sign-ins/${encodeURIComponent(id)}`),
  /** RFC 8414 metadata, outside `/backend`: its issuer is the address users reach the server at (PUBLIC_URL when set). */
  metadata: async (): Promise<{ issuer: string }> => {
    const response = await fetch('/.well-known/oauth-authorization-server', { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`oauth metadata: ${response.status}`);
    return (await response.json()) as { issuer: string };
  },
};

/** Leaves the app for the client's redirect; the one place the page navigates away from the product. */
export const leaveFor = (url: string): void => window.location.assign(url);
