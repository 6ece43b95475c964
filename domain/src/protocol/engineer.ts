import { z } from 'zod';

/**
 * The wire shapes of AI-engineer sessions, shared by the api, the command-line tool and the client:
 * a session is a tree of nodes an agent records while it works, and commands a user sends back.
 */

export const SESSION_STATUSES = ['running', 'waiting_input', 'completed', 'failed', 'stopped'] as const;
export type EngineerSessionStatus = (typeof SESSION_STATUSES)[number];
/** A session in one of these takes no more nodes, commands or input. */
export const ENDED_STATUSES: readonly EngineerSessionStatus[] = ['completed', 'failed', 'stopped'];

export const NODE_TYPES = ['message', 'thought', 'tool_call', 'command', 'output', 'file_change', 'error'] as const;
export type EngineerNodeType = (typeof NODE_TYPES)[number];
export const NODE_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type EngineerNodeStatus = (typeof NODE_STATUSES)[number];

/** `approve` and `reject` answer a proposal: their content is the id of a pending `run_command` tool_call node. */
export const COMMAND_TYPES = ['run', 'message', 'stop', 'approve', 'reject'] as const;
export type EngineerCommandType = (typeof COMMAND_TYPES)[number];
/** The tool an assistant proposes a shell command with; its node waits (`pending`) until a person approves or rejects it. */
export const RUN_COMMAND_TOOL = 'run_command';
export const RESULT_STATUSES = ['completed', 'failed'] as const;

/** Bounds that keep one node, one batch and one session small enough to show and to fold. */
export const ENGINEER_LIMITS = { text: 100_000, batch: 500, nodesPerSession: 100_000, title: 200, task: 10_000, command: 20_000, id: 100 } as const;

const text = z.string().max(ENGINEER_LIMITS.text);
// A catalogue code with the values of its placeholders, so a reader of another language gets the catalogue's own words.
const coded = { code: z.string().max(100).optional(), params: z.record(z.string().max(100), z.union([z.string().max(1000), z.number()])).optional() };
export const nodePayloadSchemas = {
  // A system note (a refused command, say) may carry a code; `text` is what was recorded, in the recorder's language.
  message: z.object({ role: z.enum(['user', 'assistant', 'system']), text, ...coded }).strict(),
  thought: z.object({ text }).strict(),
  tool_call: z.object({ name: z.string().min(1).max(200), arguments: z.record(z.string(), z.unknown()).default({}), result: text.optional() }).strict(),
  command: z.object({ command: z.string().min(1).max(ENGINEER_LIMITS.command), cwd: z.string().max(1000).optional() }).strict(),
  output: z.object({ stream: z.enum(['stdout', 'stderr', 'combined']).default('combined'), text, exit_code: z.number().int().nullable().optional() }).strict(),
  file_change: z.object({ path: z.string().min(1).max(1000), change: z.enum(['create', 'modify', 'delete']), diff: text.optional() }).strict(),
  error: z.object({ message: text, ...coded }).strict(),
} satisfies Record<EngineerNodeType, z.ZodType>;

const nodeId = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'engineer.node_id_invalid');
const common = {
  id: nodeId,
  parent_id: nodeId.nullable().default(null),
  status: z.enum(NODE_STATUSES).default('completed'),
  timestamp: z.iso.datetime({ offset: true, error: 'engineer.time_invalid' }),
  title: z.string().max(ENGINEER_LIMITS.title).optional(),
  tokens: z.number().int().min(0).optional(),
  /**
   * The node's version: sending a node again under its id with a higher revision updates it, and one
   * with a revision already recorded (a replayed older update) changes nothing. Without one, a change
   * is the next revision; the server answers every node with the revision it holds (1 for a first).
   */
  revision: z.number().int().min(1).max(1_000_000_000).optional(),
};

/** One node as an agent sends it: the payload's shape follows `node_type`. */
export const engineerNodeSchema = z.discriminatedUnion('node_type', [
  z.object({ ...common, node_type: z.literal('message'), payload: nodePayloadSchemas.message }),
  z.object({ ...common, node_type: z.literal('thought'), payload: nodePayloadSchemas.thought }),
  z.object({ ...common, node_type: z.literal('tool_call'), payload: nodePayloadSchemas.tool_call }),
  z.object({ ...common, node_type: z.literal('command'), payload: nodePayloadSchemas.command }),
  z.object({ ...common, node_type: z.literal('output'), payload: nodePayloadSchemas.output }),
  z.object({ ...common, node_type: z.literal('file_change'), payload: nodePayloadSchemas.file_change }),
  z.object({ ...common, node_type: z.literal('error'), payload: nodePayloadSchemas.error }),
]);
export type EngineerNodeInput = z.input<typeof engineerNodeSchema>;
export type EngineerNode = z.output<typeof engineerNodeSchema>;
/** A node recorded without a revision is at its first. */
export const nodeRevision = (node: EngineerNode): number => node.revision ?? 1;

export interface EngineerCommandDto {
  id: string;
  seq: number;
  command_type: EngineerCommandType;
  content: string;
  client_id: string | null;
  created_at: string;
  delivered_to: string[];
  result: { status: (typeof RESULT_STATUSES)[number]; result: string; error_message: string | null; recorded_at: string } | null;
}

/** What the session socket sends; `position` is the log position a reconnecting client resumes after. */
export type EngineerSocketMessage =
  | { type: 'subscribed'; session_id: string; position: number }
  | { type: 'nodes'; session_id: string; position: number; nodes: EngineerNode[] }
  | { type: 'status'; session_id: string; position: number; status: EngineerSessionStatus }
  | { type: 'command'; session_id: string; position: number; command: Pick<EngineerCommandDto, 'id' | 'seq' | 'command_type' | 'content' | 'client_id' | 'created_at'> }
  | { type: 'command_delivered'; session_id: string; position: number; command_id: string; client_id: string }
  | { type: 'command_result'; session_id: string; position: number; command_id: string; result: NonNullable<EngineerCommandDto['result']> }
  | { type: 'heartbeat'; timestamp: string }
  | { type: 'error'; error_message: string; code: string; params?: Record<string, string | number> };

/** What a client may send on the session socket. */
export const engineerClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('user_input'), text: z.string().trim().min(1, 'engineer.input_empty').max(ENGINEER_LIMITS.command), timestamp: z.iso.datetime({ offset: true }).optional() }),
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('heartbeat') }),
]);
