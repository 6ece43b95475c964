import { z } from 'zod';
import { queryNumber } from './query.ts';
import { COMMAND_TYPES, ENGINEER_LIMITS, engineerNodeSchema, NODE_STATUSES, NODE_TYPES, RESULT_STATUSES, SESSION_STATUSES } from '../engineer.ts';

/**
 * The AI-engineer session routes' requests and replies (`/backend/api/ai-engineer…`, spec 02 §7); see
 * `oauth.ts` for how they are shared. A request schema is the one the route parses with; the client sends its `z.input`.
 */

export const engineerSession = z.object({
  id: z.string(),
  title: z.string(),
  task_description: z.string(),
  status: z.enum(SESSION_STATUSES),
  source: z.enum(['cli', 'api', 'demo']),
  node_count: z.number().int(),
  command_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const engineerCommand = z.object({
  id: z.string(),
  seq: z.number().int(),
  command_type: z.enum(COMMAND_TYPES),
  content: z.string(),
  client_id: z.string().nullable(),
  created_at: z.string(),
  delivered_to: z.array(z.string()),
  result: z.object({ status: z.enum(RESULT_STATUSES), result: z.string(), error_message: z.string().nullable(), recorded_at: z.string() }).nullable(),
});

export const engineerSessions = z.object({ sessions: z.array(engineerSession), total: z.number().int() });
export const engineerNodesAppended = z.object({ session: engineerSession, received: z.number().int() });
export const engineerNodePage = z.object({ nodes: z.array(engineerNodeSchema), total: z.number().int(), page: z.number().int(), page_size: z.number().int(), total_pages: z.number().int() });
export const engineerNodeCursor = z.object({
  nodes: z.array(engineerNodeSchema),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
  prev_cursor: z.string().nullable(),
  direction: z.enum(['up', 'down']),
  limit: z.number().int(),
});
export const engineerNodeStats = z.object({
  session_id: z.string(),
  status: z.enum(SESSION_STATUSES),
  total_nodes: z.number().int(),
  by_type: z.record(z.enum(NODE_TYPES), z.number().int()),
  by_status: z.record(z.enum(NODE_STATUSES), z.number().int()),
  tokens: z.number().int(),
  command_count: z.number().int(),
  first_node_at: z.string().nullable().optional(),
  last_node_at: z.string().nullable().optional(),
  duration_seconds: z.number(),
});

type TreeNode = z.output<typeof engineerNodeSchema> & { children: TreeNode[] };
/** A node of the tree with its children; below the first level the document says only "the same shape" (JSON Schema's recursion does not survive inlining in the document). */
const treeNode = z.discriminatedUnion(
  'node_type',
  engineerNodeSchema.options.map((option) => option.extend({ children: z.array(z.unknown()).meta({ description: 'Nodes of the same shape, oldest first' }) })) as unknown as [typeof engineerNodeSchema.options[0]],
);
/** The whole tree, oldest first at every level; `truncated` when the session has more nodes than the tree holds. */
export const engineerTree = z.object({ session: engineerSession, tree: z.array(treeNode), truncated: z.boolean() });
export const engineerCommands = z.object({ commands: z.array(engineerCommand), last_seq: z.number().int() });

export const demoStarted = z.object({ execution_id: z.string(), session_id: z.string(), status: z.enum(SESSION_STATUSES), session: engineerSession });
export const demoExecution = engineerSession.extend({ execution_id: z.string(), offline: z.boolean(), steps: z.number().int() });
export const demoNodes = z.object({ nodes: z.array(engineerNodeSchema) });
export const demoActions = z.object({
  actions: z.array(z.object({ id: z.string(), type: z.enum(NODE_TYPES), status: z.enum(NODE_STATUSES), timestamp: z.string(), parent_id: z.string().nullable() })),
});
export const demoTerminals = z.object({
  terminals: z.array(
    z.object({ id: z.string(), command: z.string(), cwd: z.string().nullable(), started_at: z.string(), finished_at: z.string().nullable(), status: z.enum(NODE_STATUSES), output: z.string(), exit_code: z.number().int().nullable() }),
  ),
});
export const demoFiles = z.object({ files: z.array(z.object({ path: z.string(), change: z.enum(['create', 'modify', 'delete']), timestamp: z.string() })) });

export type EngineerSessionDto = z.infer<typeof engineerSession>;
export type EngineerCommandReply = z.infer<typeof engineerCommand>;
export type EngineerSessions = z.infer<typeof engineerSessions>;
export type EngineerNodePage = z.infer<typeof engineerNodePage>;
export type EngineerNodeCursor = z.infer<typeof engineerNodeCursor>;
export type EngineerNodeStats = z.infer<typeof engineerNodeStats>;
export type EngineerTree = Omit<z.infer<typeof engineerTree>, 'tree'> & { tree: TreeNode[] };
export type EngineerCommands = z.infer<typeof engineerCommands>;
export type DemoStarted = z.infer<typeof demoStarted>;
export type DemoExecution = z.infer<typeof demoExecution>;
export type DemoNodes = z.infer<typeof demoNodes>;
export type DemoTerminals = z.infer<typeof demoTerminals>;
export type DemoFiles = z.infer<typeof demoFiles>;

/** Requests. */

export const engineerClientId = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'engineer.client_id_invalid');
export const engineerCommandBody = z.object({ command_type: z.enum(COMMAND_TYPES), content: z.string().max(ENGINEER_LIMITS.command).default(''), client_id: engineerClientId.nullable().default(null) });
/** Control characters other than tab and line breaks: the demo writes the task into its commands, and no command can carry a NUL. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
export const demoBody = z.object({
  task_description: z
    .string({ error: 'engineer.task_required' })
    .trim()
    .min(1, 'validation.required')
    .max(ENGINEER_LIMITS.task)
    .refine((task) => !CONTROL.test(task), 'engineer.task_forbidden_characters'),
});

export type EngineerCommandBody = z.input<typeof engineerCommandBody>;
export type DemoBody = z.input<typeof demoBody>;

/** Spec 02 §9: pages of 50, cursors of 50, newest first; at most 200 a page. */
const PAGE_SIZE = 50;
export const ENGINEER_MAX_PAGE = 200;

/** The queries of the session reads; the client passes their `z.input`. */
export const sessionListQuery = z.object({ status: z.enum(SESSION_STATUSES).optional() });
const time = z.iso.datetime({ offset: true, error: 'engineer.time_invalid' });
export const nodesQuery = z.object({
  page: queryNumber().int().min(1).default(1),
  page_size: queryNumber().int().min(1).max(ENGINEER_MAX_PAGE).default(PAGE_SIZE),
  node_type: z.enum(NODE_TYPES).optional(),
  /** `root` asks for the nodes without a parent. */
  parent_id: z.string().min(1).max(ENGINEER_LIMITS.id).optional(),
  status: z.enum(NODE_STATUSES).optional(),
  start_time: time.optional(),
  end_time: time.optional(),
  sort_by: z.enum(['timestamp', 'node_type', 'status']).default('timestamp'),
  sort_order: z.enum(['asc', 'desc']).default('desc'),
});
export const cursorQuery = z.object({
  cursor: z.string().max(400).optional(),
  direction: z.enum(['up', 'down']).default('down'),
  /** Up to a batch's worth, so a screen walking a long session asks as few times as an agent wrote. */
  limit: queryNumber().int().min(1).max(ENGINEER_LIMITS.batch).default(PAGE_SIZE),
});
export const commandsQuery = z.object({ client_id: engineerClientId.optional(), after: queryNumber().int().min(0).default(0) });
export type SessionListQuery = z.input<typeof sessionListQuery>;
export type NodesQuery = z.input<typeof nodesQuery>;
export type CursorQuery = z.input<typeof cursorQuery>;
export type CommandsQuery = z.input<typeof commandsQuery>;
