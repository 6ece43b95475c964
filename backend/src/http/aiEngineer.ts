import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { ParameterizedContext as Context } from 'koa';
import { z } from 'zod';
import type { Filter, FindOptions } from '@scriptorium/infra/readstore/port';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import {
  ENGINEER_COMMANDS,
  ENGINEER_NODES,
  ENGINEER_SESSIONS,
  nodeDocId,
  nodePage,
  type EngineerCommandDoc,
  type EngineerNodeDoc,
  type EngineerSessionDoc,
} from '@scriptorium/projections/engineer';
import { LONG_QUEUE } from '@scriptorium/domain/conversation/jobs';
import { DEMOS_PER_USER } from '@scriptorium/domain/engineer/demo';
import type { EngineerService } from '@scriptorium/domain/engineer/service';
import { demoJobId } from '@scriptorium/domain/jobs/dispatch';
import { ENGINEER_LIMITS, engineerNodeSchema, NODE_STATUSES, NODE_TYPES, RESULT_STATUSES, SESSION_STATUSES, type EngineerNode } from '@scriptorium/domain/protocol/engineer';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { httpError, validationError } from './errors.ts';
import { parseBody, parseParams, parseQuery } from './validate.ts';
import { contract } from './contract.ts';
import {
  demoActions,
  demoBody,
  demoExecution,
  demoFiles,
  demoNodes,
  demoStarted,
  demoTerminals,
  engineerCommand,
  engineerCommandBody,
  engineerCommands,
  engineerNodeCursor,
  engineerNodePage,
  engineerNodesAppended,
  engineerNodeStats,
  engineerSession,
  engineerSessions,
  engineerTree,
  commandsQuery,
  cursorQuery,
  ENGINEER_MAX_PAGE,
  nodesQuery,
  sessionListQuery,
} from '@scriptorium/domain/protocol/http/aiEngineer';

/** The tree answers a whole session up to this many nodes; longer sessions page with the cursor. */
const TREE_NODES = 10_000;

const id = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'engineer.id_invalid');
const sessionParam = z.object({ id });
const nodeParam = z.object({ id, nodeId: z.string().min(1).max(ENGINEER_LIMITS.id) });
const commandParam = z.object({ id, cmdId: z.uuid('engineer.command_id_invalid') });

const createBody = z.object({
  title: z.string({ error: 'engineer.title_required' }).max(ENGINEER_LIMITS.title),
  task_description: z.string().max(ENGINEER_LIMITS.task).default(''),
  /** Lets a retried create land on the same session. */
  session_id: id.optional(),
  source: z.enum(['cli', 'api']).default('api'),
});
/** An agent reports its status beside a batch, or alone with no nodes (how it ends a session). */
const nodesBody = z
  .object({ nodes: z.array(engineerNodeSchema, { error: (issue) => (issue.code === 'invalid_type' ? 'engineer.nodes_required' : undefined) }).max(ENGINEER_LIMITS.batch), status: z.enum(SESSION_STATUSES).optional() })
  .refine((body) => body.nodes.length > 0 || body.status !== undefined, { path: ['nodes'], message: 'validation.required' });
const resultBody = z.object({ status: z.enum(RESULT_STATUSES), result: z.string().max(ENGINEER_LIMITS.text).default(''), error_message: z.string().max(ENGINEER_LIMITS.text).nullable().default(null) });
/** A demo's views read at most this many nodes, oldest first. */
const DEMO_NODES = 1000;
const inputBody = z.object({ text: z.string({ error: 'engineer.input_empty' }).trim().min(1, 'engineer.input_empty').max(ENGINEER_LIMITS.command) });

export const sessionDto = (doc: EngineerSessionDoc) => ({
  id: doc._id,
  title: doc.title,
  task_description: doc.task_description,
  status: doc.status,
  source: doc.source,
  node_count: doc.node_count,
  command_count: doc.command_count,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
});

export const nodeDto = ({ _id: _doc, session_id: _session, sort_key: _key, position: _position, ...node }: EngineerNodeDoc): EngineerNode => node as EngineerNode;
const commandDto = ({ _id: _doc, session_id: _session, ...command }: EngineerCommandDoc) => command;

/** A cursor is the sort key of the node it stands after, opaque to the client. */
const encodeCursor = (sortKey: string) => Buffer.from(sortKey, 'utf8').toString('base64url');
function decodeCursor(cursor: string): string {
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^\d{4}-\d{2}-\d{2}T[\d:.]+Z\|.+$/.test(sortKey)) throw validationError([{ code: 'custom', path: ['cursor'], message: 'engineer.bad_cursor', input: cursor }], 'query');
  return sortKey;
}

/** AI-engineer sessions (spec 02 §7): record a tree of nodes, read it by page, cursor or tree, and send commands and input back. Owner only. */
export function aiEngineerRoutes(services: Services, engineer: EngineerService, progress: ProjectionProgress): Router {
  const router = new Router({ prefix: '/api/ai-engineer' });
  const sessions = () => services.readStore.collection<EngineerSessionDoc>(ENGINEER_SESSIONS);
  const nodes = () => services.readStore.collection<EngineerNodeDoc>(ENGINEER_NODES);
  const commands = () => services.readStore.collection<EngineerCommandDoc>(ENGINEER_COMMANDS);

  async function owned(userId: string, sessionId: string, position = 0): Promise<EngineerSessionDoc> {
    await progress.waitFor(position);
    const doc = await sessions().get(sessionId);
    if (!doc || doc.owner_id !== userId) throw httpError(404, 'engineer.not_found');
    return doc;
  }

  const ownedFromPath = async (ctx: Context) => {
    const user = await requireUser(services, ctx);
    const { id: sessionId } = parseParams(ctx.params, sessionParam);
    return { user, sessionId, session: await owned(user.id, sessionId) };
  };

  router.post('/sessions', contract({ access: 'user', body: createBody, responses: { 201: engineerSession }, refusals: [404, 409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, createBody);
    const sessionId = body.session_id ?? randomUUID();
    const position = await engineer.create(user.id, sessionId, { title: body.title, taskDescription: body.task_description, source: body.source });
    ctx.status = 201;
    ctx.body = sessionDto(await owned(user.id, sessionId, position));
  });

  router.get('/sessions', contract({ access: 'user', query: sessionListQuery, responses: { 200: engineerSessions } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { status } = parseQuery(ctx, sessionListQuery);
    const docs = await sessions().find({ owner_id: user.id, ...(status && { status }) }, { sort: { updated_at: -1 } });
    ctx.body = { sessions: docs.map(sessionDto), total: docs.length };
  });

  router.get('/sessions/:id', contract({ access: 'user', params: sessionParam, responses: { 200: engineerSession }, refusals: [404] }), async (ctx) => {
    ctx.body = sessionDto((await ownedFromPath(ctx)).session);
  });

  router.post('/sessions/:id/nodes', contract({ access: 'user', params: sessionParam, body: nodesBody, responses: { 200: engineerNodesAppended }, refusals: [404, 409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id: sessionId } = parseParams(ctx.params, sessionParam);
    const body = parseBody(ctx, nodesBody);
    const position = await engineer.appendNodes(user.id, sessionId, body.nodes, body.status);
    const session = await owned(user.id, sessionId, position);
    ctx.body = { session: sessionDto(session), received: body.nodes.length };
  });

  router.get('/sessions/:id/nodes', contract({ access: 'user', params: sessionParam, query: nodesQuery, responses: { 200: engineerNodePage }, refusals: [404] }), async (ctx) => {
    const { sessionId } = await ownedFromPath(ctx);
    const query = parseQuery(ctx, nodesQuery);
    const filter: Filter = { session_id: sessionId };
    if (query.node_type) filter.node_type = query.node_type;
    if (query.status) filter.status = query.status;
    if (query.parent_id) filter.parent_id = query.parent_id === 'root' ? null : query.parent_id;
    if (query.start_time || query.end_time) {
      filter.sort_key = {
        ...(query.start_time && { $gte: new Date(query.start_time).toISOString() }),
        // The key continues past the time with `|id`, so the whole end millisecond is below `…Z}`.
        ...(query.end_time && { $lt: `${new Date(query.end_time).toISOString()}}` }),
      };
    }
    const direction = query.sort_order === 'asc' ? 1 : -1;
    const sort: FindOptions['sort'] = query.sort_by === 'timestamp' ? { sort_key: direction, _id: direction } : { [query.sort_by]: direction, sort_key: -1 };
    const [docs, total] = await Promise.all([
      nodes().find(filter, { sort, skip: (query.page - 1) * query.page_size, limit: query.page_size }),
      nodes().count(filter),
    ]);
    ctx.body = { nodes: docs.map(nodeDto), total, page: query.page, page_size: query.page_size, total_pages: Math.ceil(total / query.page_size) };
  });

  /** Keyset paging, newest first (`nodePage`): `down` goes to older nodes, `up` to newer ones, each page still newest first. */
  router.get('/sessions/:id/nodes/cursor', contract({ access: 'user', params: sessionParam, query: cursorQuery, responses: { 200: engineerNodeCursor }, refusals: [404] }), async (ctx) => {
    const { sessionId } = await ownedFromPath(ctx);
    const { cursor, direction, limit } = parseQuery(ctx, cursorQuery);
    const after = cursor === undefined ? undefined : decodeCursor(cursor);
    const down = direction === 'down';
    const { docs: page, hasMore } = await nodePage(nodes(), sessionId, after, direction, limit);
    if (!down) page.reverse();
    ctx.body = {
      nodes: page.map(nodeDto),
      has_more: hasMore,
      next_cursor: page.length > 0 && (down ? hasMore : true) ? encodeCursor(page.at(-1)!.sort_key) : null,
      prev_cursor: page.length > 0 && (down ? after !== undefined : hasMore) ? encodeCursor(page[0]!.sort_key) : null,
      direction,
      limit,
    };
  });

  router.get('/sessions/:id/nodes/stats', contract({ access: 'user', params: sessionParam, responses: { 200: engineerNodeStats }, refusals: [404] }), async (ctx) => {
    const { session } = await ownedFromPath(ctx);
    const first = session.first_node_at;
    const last = session.last_node_at;
    ctx.body = {
      session_id: session._id,
      status: session.status,
      total_nodes: session.node_count,
      by_type: Object.fromEntries(NODE_TYPES.map((type) => [type, session.by_type[type] ?? 0])),
      by_status: Object.fromEntries(NODE_STATUSES.map((status) => [status, session.by_status[status] ?? 0])),
      tokens: session.tokens,
      command_count: session.command_count,
      first_node_at: first,
      last_node_at: last,
      duration_seconds: first && last ? (Date.parse(last) - Date.parse(first)) / 1000 : 0,
    };
  });

  router.get('/sessions/:id/nodes/:nodeId', contract({ access: 'user', params: nodeParam, responses: { 200: engineerNodeSchema }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id: sessionId, nodeId } = parseParams(ctx.params, nodeParam);
    await owned(user.id, sessionId);
    const doc = await nodes().get(nodeDocId(sessionId, nodeId));
    if (!doc) throw httpError(404, 'engineer.node_not_found');
    ctx.body = nodeDto(doc);
  });

  /** The whole tree, oldest first at every level; a node whose parent was cut by the bound shows at the root. */
  router.get('/sessions/:id/tree', contract({ access: 'user', params: sessionParam, responses: { 200: engineerTree }, refusals: [404] }), async (ctx) => {
    const { session, sessionId } = await ownedFromPath(ctx);
    const docs = await nodes().find({ session_id: sessionId }, { sort: { sort_key: 1, _id: 1 }, limit: TREE_NODES });
    type TreeNode = EngineerNode & { children: TreeNode[] };
    const byId = new Map<string, TreeNode>(docs.map((doc) => [doc.id, { ...nodeDto(doc), children: [] }]));
    const roots: TreeNode[] = [];
    for (const node of byId.values()) {
      const parent = node.parent_id === null ? undefined : byId.get(node.parent_id);
      (parent ? parent.children : roots).push(node);
    }
    ctx.body = { session: sessionDto(session), tree: roots, truncated: session.node_count > docs.length };
  });

  router.post('/sessions/:id/commands', contract({ access: 'user', params: sessionParam, body: engineerCommandBody, responses: { 201: engineerCommand }, refusals: [404, 409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id: sessionId } = parseParams(ctx.params, sessionParam);
    const body = parseBody(ctx, engineerCommandBody);
    const { commandId, position } = await engineer.issue(user.id, sessionId, { commandType: body.command_type, content: body.content, clientId: body.client_id });
    await owned(user.id, sessionId, position);
    ctx.status = 201;
    ctx.body = commandDto((await commands().get(`${sessionId}:${commandId}`))!);
  });

  /**
   * Commands after a sequence number. With `client_id` (an agent polling), only those for that
   * client or for any, and their delivery to it is recorded once; asking again with the same
   * `after` answers the same commands, so a lost answer loses nothing.
   */
  router.get('/sessions/:id/commands', contract({ access: 'user', params: sessionParam, query: commandsQuery, responses: { 200: engineerCommands }, refusals: [404] }), async (ctx) => {
    const { user, sessionId } = await ownedFromPath(ctx);
    const query = parseQuery(ctx, commandsQuery);
    const after = { session_id: sessionId, seq: { $gt: query.after } };
    const docs = await commands().find(query.client_id ? { ...after, client_id: { $in: [null, query.client_id] } } : after, { sort: { seq: 1 }, limit: ENGINEER_MAX_PAGE });
    const undelivered = query.client_id ? docs.filter((doc) => !doc.delivered_to.includes(query.client_id!)) : [];
    if (undelivered.length > 0) await engineer.deliver(user.id, sessionId, query.client_id!, undelivered.map((doc) => doc.id));
    ctx.body = { commands: docs.map(commandDto), last_seq: docs.at(-1)?.seq ?? query.after };
  });

  router.post('/sessions/:id/commands/:cmdId/result', contract({ access: 'user', params: commandParam, body: resultBody, responses: { 200: engineerCommand }, refusals: [404, 409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id: sessionId, cmdId } = parseParams(ctx.params, commandParam);
    const body = parseBody(ctx, resultBody);
    const position = await engineer.recordResult(user.id, sessionId, { commandId: cmdId, status: body.status, result: body.result, errorMessage: body.error_message });
    await owned(user.id, sessionId, position);
    ctx.body = commandDto((await commands().get(`${sessionId}:${cmdId}`))!);
  });

  router.post('/sessions/:id/user-input', contract({ access: 'user', params: sessionParam, body: inputBody, responses: { 201: engineerCommand }, refusals: [404, 409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id: sessionId } = parseParams(ctx.params, sessionParam);
    const { text } = parseBody(ctx, inputBody);
    const { commandId, position } = await engineer.issue(user.id, sessionId, { commandType: 'message', content: text, clientId: null });
    await owned(user.id, sessionId, position);
    ctx.status = 201;
    ctx.body = commandDto((await commands().get(`${sessionId}:${commandId}`))!);
  });

  /** Stops a running session (the demo's execution or any agent's): the agent sees the status and ends. */
  router.post('/executions/:id/stop', contract({ access: 'user', params: sessionParam, responses: { 200: engineerSession }, refusals: [404, 409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id: sessionId } = parseParams(ctx.params, sessionParam);
    const position = await engineer.setStatus(user.id, sessionId, 'stopped');
    const session = await owned(user.id, sessionId, position);
    // The demo's job sees its signal abort, which kills the command it is running rather than let it run to its time limit.
    if (session.source === 'demo') await services.queue.cancel(LONG_QUEUE, demoJobId(sessionId));
    ctx.body = sessionDto(session);
  });

  /** Starts the demo agent on a task: a session whose creation queues the job (domain/src/jobs/dispatch.ts). */
  router.post('/start-demo', contract({ access: 'user', body: demoBody, responses: { 201: demoStarted }, refusals: [429] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { task_description } = parseBody(ctx, demoBody);
    // Read from the read model, so two starts at the same instant may both pass: the bound is for fairness, not a quota to the unit.
    const open = await sessions().count({ owner_id: user.id, source: 'demo', status: { $in: ['running', 'waiting_input'] } });
    if (open >= DEMOS_PER_USER) throw httpError(429, 'engineer.demo_limit', { max: DEMOS_PER_USER });
    const sessionId = randomUUID();
    const title = Array.from(task_description.replace(/\s+/g, ' ')).slice(0, 60).join('');
    const position = await engineer.create(user.id, sessionId, { title, taskDescription: task_description, source: 'demo' });
    const session = await owned(user.id, sessionId, position);
    ctx.status = 201;
    ctx.body = { execution_id: sessionId, session_id: sessionId, status: session.status, session: sessionDto(session) };
  });

  /** A demo execution's nodes, oldest first: what its views are made of. */
  async function demo(ctx: Context): Promise<{ session: EngineerSessionDoc; nodes: EngineerNode[] }> {
    const { session, sessionId } = await ownedFromPath(ctx);
    if (session.source !== 'demo') throw httpError(404, 'engineer.not_found');
    const docs = await nodes().find({ session_id: sessionId }, { sort: { sort_key: 1, _id: 1 }, limit: DEMO_NODES });
    return { session, nodes: docs.map(nodeDto) };
  }

  router.get('/demo/executions/:id', contract({ access: 'user', params: sessionParam, responses: { 200: demoExecution }, refusals: [404] }), async (ctx) => {
    const { session, nodes: list } = await demo(ctx);
    const plan = list.find((node) => node.id === 'plan');
    const offline = plan?.node_type === 'tool_call' && plan.payload.arguments.offline === true;
    ctx.body = { execution_id: session._id, ...sessionDto(session), offline, steps: list.filter((node) => node.node_type === 'command').length };
  });

  router.get('/demo/executions/:id/nodes', contract({ access: 'user', params: sessionParam, responses: { 200: demoNodes }, refusals: [404] }), async (ctx) => {
    ctx.body = { nodes: (await demo(ctx)).nodes };
  });

  /** Every action the agent took, as one line each. */
  router.get('/demo/executions/:id/actions', contract({ access: 'user', params: sessionParam, responses: { 200: demoActions }, refusals: [404] }), async (ctx) => {
    ctx.body = { actions: (await demo(ctx)).nodes.map((node) => ({ id: node.id, type: node.node_type, status: node.status, timestamp: node.timestamp, parent_id: node.parent_id })) };
  });

  /** Each command with what it printed and how it ended. */
  router.get('/demo/executions/:id/terminals', contract({ access: 'user', params: sessionParam, responses: { 200: demoTerminals }, refusals: [404] }), async (ctx) => {
    const list = (await demo(ctx)).nodes;
    ctx.body = {
      terminals: list.flatMap((node) => {
        if (node.node_type !== 'command') return [];
        const out = list.find((child) => child.parent_id === node.id && (child.node_type === 'output' || child.node_type === 'error'));
        const output = out?.node_type === 'output' ? out.payload : null;
        return [{ id: node.id, command: node.payload.command, cwd: node.payload.cwd ?? null, started_at: node.timestamp, finished_at: out?.timestamp ?? null, status: out?.status ?? node.status, output: output?.text ?? (out?.node_type === 'error' ? out.payload.message : ''), exit_code: output?.exit_code ?? null }];
      }),
    };
  });

  /** The files the agent's commands created, changed or deleted, as each stands last. */
  router.get('/demo/executions/:id/files', contract({ access: 'user', params: sessionParam, responses: { 200: demoFiles }, refusals: [404] }), async (ctx) => {
    const latest = new Map<string, { path: string; change: string; timestamp: string }>();
    for (const node of (await demo(ctx)).nodes) if (node.node_type === 'file_change') latest.set(node.payload.path, { path: node.payload.path, change: node.payload.change, timestamp: node.timestamp });
    ctx.body = { files: [...latest.values()] };
  });

  return router;
}
