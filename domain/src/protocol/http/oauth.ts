import { z } from 'zod';

/**
 * The OAuth authorisation server's replies (RFC 6749, 7009, 8414) and the consent page's, as the
 * server sends them: the routes declare them, the OpenAPI document shows them, the client infers
 * its types from them (`import type` only: zod stays out of the client bundle).
 */

/** Every parameter of an authorisation request, as the consent page passes them on (RFC 6749 §4.1.1, RFC 7636 §4.3). */
export const authorizeQuery = z.object({
  response_type: z.string().max(64).optional(),
  client_id: z.string().max(128).optional(),
  redirect_uri: z.string().max(2048).optional(),
  scope: z.string().max(256).optional(),
  state: z.string().max(1024).optional(),
  code_challenge: z.string().max(256).optional(),
  code_challenge_method: z.string().max(16).optional(),
});
export const authorizeBody = authorizeQuery.extend({ decision: z.enum(['approve', 'deny']) });
export type AuthorizeQuery = z.input<typeof authorizeQuery>;
export type AuthorizeBody = z.input<typeof authorizeBody>;

/** RFC 6749 §5.2, with the catalogue's finer reason in `code`; the description is ASCII English, as the RFC requires. */
export const oauthErrorBody = z
  .object({
    error: z.enum(['invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type', 'invalid_scope', 'access_denied', 'unsupported_response_type', 'server_error']),
    error_description: z.string().optional(),
    code: z.string(),
  })
  .meta({ description: 'RFC 6749 §5.2: `error` the RFC’s name, `error_description` in English, `code` the catalogue’s finer reason' });

/** RFC 6749 §5.1; `scope` is what the user approved, the grant's for good. */
export const oauthTokenReply = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().positive(),
  refresh_token: z.string(),
  scope: z.string(),
});

/** RFC 8414 §2, at `/.well-known/oauth-authorization-server`. */
export const oauthMetadata = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  revocation_endpoint: z.string(),
  response_types_supported: z.array(z.literal('code')),
  response_modes_supported: z.array(z.literal('query')),
  grant_types_supported: z.array(z.enum(['authorization_code', 'refresh_token'])),
  code_challenge_methods_supported: z.array(z.literal('S256')),
  token_endpoint_auth_methods_supported: z.array(z.literal('none')),
  revocation_endpoint_auth_methods_supported: z.array(z.literal('none')),
  scopes_supported: z.array(z.string()),
  authorization_response_iss_parameter_supported: z.boolean(),
  service_documentation: z.string(),
  ui_locales_supported: z.array(z.string()),
});

export const oauthClientDto = z.object({ id: z.string(), name: z.string(), name_en: z.string() });

/** A request the user can answer, or one whose problem goes back to the app (its redirect is registered). */
export const authorizeRequestReply = z.discriminatedUnion('status', [
  z.object({ status: z.literal('consent'), client: oauthClientDto, scopes: z.array(z.string()), redirect_uri: z.string(), native: z.boolean() }),
  z.object({ status: z.literal('error'), redirect_to: z.string() }),
]);

/** Where the browser goes next: the app's redirect with a code, or with the error. */
export const authorizeAnswerReply = z.object({ redirect_to: z.string() });

export const authorisedApp = z.object({
  id: z.string(),
  client_id: z.string(),
  client_name: z.string(),
  client_name_en: z.string(),
  scope: z.string(),
  granted_at: z.string(),
  last_used_at: z.string(),
});
export const authorisedApps = z.object({ grants: z.array(authorisedApp) });

/** A password sign-in an app made (the command line's `login --password`), listed beside the apps authorised through OAuth. */
export const appSignIn = z.object({
  id: z.string(),
  client_id: z.string(),
  client_name: z.string(),
  client_name_en: z.string(),
  /** The machine it signed in from, as the app named it; may be empty. */
  device_name: z.string(),
  /** What its token may do, as an authorised app's `scope`. */
  scope: z.string(),
  signed_in_at: z.string(),
  last_used_at: z.string(),
  expires_at: z.string(),
});
export const appSignIns = z.object({ sign_ins: z.array(appSignIn) });

/** A grant or an app sign-in ended by its user. */
export const revokedReply = z.object({ id: z.string(), status: z.literal('revoked') });

export type OAuthTokenReply = z.infer<typeof oauthTokenReply>;
export type OAuthMetadata = z.infer<typeof oauthMetadata>;
export type OAuthClientDto = z.infer<typeof oauthClientDto>;
export type AuthorizeRequestDto = z.infer<typeof authorizeRequestReply>;
export type AuthorisedApp = z.infer<typeof authorisedApp>;
export type AppSignIn = z.infer<typeof appSignIn>;
export type RevokedReply = z.infer<typeof revokedReply>;
export type AuthorizeAnswerReply = z.infer<typeof authorizeAnswerReply>;
export type AuthorisedApps = z.infer<typeof authorisedApps>;
export type AppSignIns = z.infer<typeof appSignIns>;
