import { z } from 'zod';

/**
 * The agents routes' requests and replies (`/backend/api/agents…`, spec 02 §7 Agents); see `oauth.ts`
 * for how they are shared. A request schema is the one the route parses with; the client sends its `z.input`.
 */

export const MAX_AGENT_NAME = 60;
export const MAX_AGENT_DESCRIPTION = 300;
export const MAX_INSTRUCTIONS = 4000;

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

/** Requests. */

const profile = {
  name: z.string({ error: 'agents.name_required' }).max(MAX_AGENT_NAME * 2),
  description: z.string().max(MAX_AGENT_DESCRIPTION * 2),
  instructions: z.string({ error: 'agents.instructions_required' }).max(MAX_INSTRUCTIONS * 2),
  tools: z.array(z.string().max(60)).max(20),
};
export const agentCreateBody = z.object({ ...profile, description: profile.description.default(''), tools: profile.tools.default([]) });
export const agentUpdateBody = z.object({ name: profile.name.optional(), description: profile.description.optional(), instructions: profile.instructions.optional(), tools: profile.tools.optional() });
export const toolTestBody = z.object({ tool: z.string({ error: 'agents.tool_required' }).min(1).max(60), args: z.record(z.string(), z.unknown()).default({}), agent_id: z.uuid('agents.id_invalid').optional() });

export type AgentCreateBody = z.input<typeof agentCreateBody>;
export type AgentUpdateBody = z.input<typeof agentUpdateBody>;
export type ToolTestBody = z.input<typeof toolTestBody>;
