import { z } from 'zod';

/** /manage's Connections replies (`/backend/admin/connections…`, administrators only); see `oauth.ts` for how they are shared. */

/** A model's window, output cap and reasoning format as the api writes them; any field may be absent in an override. */
export const modelProfileWire = z.object({
  context_window: z.number().int().optional(),
  max_output_tokens: z.number().int().optional(),
  reasoning: z.enum(['none', 'reasoning_content', 'think_tags']).optional(),
  price: z.object({ prompt_per_million: z.number(), completion_per_million: z.number(), currency: z.string() }).optional(),
});

/** Whether a key is saved and readable, and its last four characters at most: the key itself never comes back. */
export const secretHint = z.object({ set: z.boolean(), readable: z.boolean(), last4: z.string().nullable() });

export const connectionTestRecord = z.object({ ok: z.boolean(), latency_ms: z.number(), detail: z.string(), by: z.string(), at: z.string() });

export const modelEndpoint = z.object({
  id: z.string(),
  base_url: z.string(),
  model: z.string(),
  roles: z.array(z.string()),
  profile: modelProfileWire,
  builtin_profile: modelProfileWire,
  effective_profile: modelProfileWire,
  key: secretHint,
  last_test: connectionTestRecord.nullable(),
});

/** Every change answers the whole listing, which replaces the one the page holds. */
export const connectionsListing = z.object({
  revision: z.number().int(),
  roles: z.array(z.string()),
  models: z.array(modelEndpoint),
  search: z.object({ url: z.string(), last_test: connectionTestRecord.nullable() }).nullable(),
  smtp: z.object({ url: z.string(), from: z.string(), password: secretHint, last_test: connectionTestRecord.nullable() }).nullable(),
  speech: z.object({ base_url: z.string(), model: z.string(), key: secretHint, last_test: connectionTestRecord.nullable() }).nullable(),
});

export const endpointAdded = connectionsListing.extend({ id: z.string() });

/** What a test call answered now; a model test adds who answered and the profile in use. */
export const connectionTestResult = z.object({ ok: z.boolean(), latency_ms: z.number(), detail: z.string() });
export const modelTestResult = connectionTestResult.extend({ model: z.string().nullable(), profile: modelProfileWire });

export type ModelProfileWire = z.infer<typeof modelProfileWire>;
export type SecretHint = z.infer<typeof secretHint>;
export type ConnectionTestRecord = z.infer<typeof connectionTestRecord>;
export type ModelEndpoint = z.infer<typeof modelEndpoint>;
export type Connections = z.infer<typeof connectionsListing>;
export type EndpointAdded = z.infer<typeof endpointAdded>;
export type ConnectionTestResult = z.infer<typeof connectionTestResult> & Partial<Pick<z.infer<typeof modelTestResult>, 'model' | 'profile'>>;

/** Requests: a schema is the one the route parses with; the client sends its `z.input`. */

/** A bound on the body's size: room for every role twice (infra's five MODEL_ROLES, which the protocol may not import); which roles they are is the decider's to check. */
const MAX_ENDPOINT_ROLES = 10;
const price = z.object({ prompt_per_million: z.number(), completion_per_million: z.number(), currency: z.string().max(8) }).strict();
/** Wire form of a profile override (snake case, as the api speaks); ranges are the decider's to check. */
export const profileOverride = z
  .object({ context_window: z.number().int().optional(), max_output_tokens: z.number().int().optional(), reasoning: z.string().max(32).optional(), price: price.optional() })
  .strict();
/** A key or password: absent keeps the saved one, null or empty removes it, text replaces it. */
const secret = z.string().max(4000, 'connections.key_too_long').nullable().optional();
export const endpointBody = z
  .object({
    base_url: z.string().max(2000),
    model: z.string().max(400),
    roles: z.array(z.string().max(32)).max(MAX_ENDPOINT_ROLES),
    profile: profileOverride.default({}),
    api_key: secret,
  })
  .strict();
export const searchConnectionBody = z.object({ url: z.string().max(2000) }).strict();
export const smtpConnectionBody = z.object({ url: z.string().max(2000), from: z.string().max(320), password: secret }).strict();
export const speechConnectionBody = z.object({ base_url: z.string().max(2000), model: z.string().max(400), api_key: secret }).strict();

export type EndpointBody = z.input<typeof endpointBody>;
export type SearchConnectionBody = z.input<typeof searchConnectionBody>;
export type SmtpConnectionBody = z.input<typeof smtpConnectionBody>;
export type SpeechConnectionBody = z.input<typeof speechConnectionBody>;

/** The model whose built-in profile is asked for (GET /admin/connections/profile). */
export const modelProfileQuery = z.object({ model: z.string().max(400) });
export type ModelProfileQuery = z.input<typeof modelProfileQuery>;
