import { z } from 'zod';

/** The agents routes' replies (`/backend/api/agents…`, spec 02 §7 Agents); see `oauth.ts` for how they are shared. */

const codedParams = z.record(z.string(), z.union([z.string(), z.number()]));

/** A platform tool as an agent may use it: its arguments as JSON Schema. */
export const toolDescriptor = z.object({
  name: z.string(),
  description: z.string(),
  parameters: z.looseObject({
    properties: z.record(z.string(), z.looseObject({ type: z.string().optional(), description: z.string().optional(), default: z.unknown().optional(), enum: z.array(z.unknown()).optional(), items: z.unknown().optional() })).optional(),
    required: z.array(z.string()).optional(),
  }),
});

export const agentReply = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  instructions: z.string(),
  tools: z.array(z.string()),
  tests: z.number().int(),
  failed_tests: z.number().int(),
  last_test_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const agentList = z.object({ agents: z.array(agentReply), tools: z.array(toolDescriptor) });

/** One tool run kept in an agent's history: the result as JSON or the reason in Chinese; a failure the catalogue words also has `code` and `params`. */
export const toolRun = z.object({ tool: z.string(), ok: z.boolean(), summary: z.string(), code: z.string().optional(), params: codedParams.optional(), duration_ms: z.number().int(), at: z.string() });

export const agentDetail = agentReply.extend({ recent_tests: z.array(toolRun) });

/** A failed run's `error` is the server's Chinese text; `code` and `params`, when given, word it in the reader's language. */
export const toolTestResult = z.discriminatedUnion('ok', [
  z.object({ tool: z.string(), ok: z.literal(true), result: z.unknown(), count: z.number().int(), duration_ms: z.number().int() }),
  z.object({ tool: z.string(), ok: z.literal(false), error: z.string(), code: z.string().optional(), params: codedParams.optional(), duration_ms: z.number().int() }),
]);

export type ToolDescriptor = z.infer<typeof toolDescriptor>;
export type AgentDto = z.infer<typeof agentReply>;
export type AgentList = z.infer<typeof agentList>;
export type ToolRun = z.infer<typeof toolRun>;
export type AgentDetail = z.infer<typeof agentDetail>;
export type ToolTestResult = z.infer<typeof toolTestResult>;
