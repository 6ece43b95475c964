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
