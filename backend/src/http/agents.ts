import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { z } from 'zod';
import { AGENT_TOOL_TESTS, AGENTS, type AgentDoc, type AgentToolTestDoc } from '@scriptorium/projections/agents';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { createAgentToolPreview } from '@scriptorium/domain/tools/platform';
import { ToolError } from '@scriptorium/domain/tools/registry';
import { agentStream } from '@scriptorium/domain/agents/agent';
import { agentDecider, type AgentCommand } from '@scriptorium/domain/agents/decide';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { chineseText, refusal, type CodedError, type ErrorParams } from '@scriptorium/domain/protocol/errors';
import { httpError, invalidField, validationError } from './errors.ts';
import { parseBody, parseParams } from './validate.ts';
import { contract } from './contract.ts';
import { agentCreateBody, agentDetail, agentList, agentReply, agentUpdateBody, toolTestBody, toolTestResult } from '@scriptorium/domain/protocol/http/agents';
import { deleted } from '@scriptorium/domain/protocol/http/acknowledged';

/** A tool tried from the page may take this long before it is given up. */
const TEST_TIMEOUT_MS = 10_000;
const RECENT_TESTS = 20;

const idParam = z.object({ id: z.uuid('agents.id_invalid') });

const agentDto = (doc: AgentDoc) => ({
  id: doc._id,
  name: doc.name,
  description: doc.description,
  instructions: doc.instructions,
  tools: doc.tools,
  tests: doc.tests,
  failed_tests: doc.failed_tests,
  last_test_at: doc.last_test_at,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
});

/** The user's agents (spec 02 §7 Agents): create, list, change, delete, and try the platform tools they use. */
export function agentRoutes(services: Services, progress: ProjectionProgress): Router {
  const router = new Router();
  const tools = createAgentToolPreview(() => services.clock());
  const knownTools = tools.list().map((tool) => tool.name);
  const agents = () => services.readStore.collection<AgentDoc>(AGENTS);
  const run = (agentId: string, actorId: string, command: Omit<AgentCommand, 'metadata'>) =>
    services.commands.handle(agentDecider, agentStream(agentId), { ...command, metadata: { now: services.clock(), userId: actorId } } as AgentCommand);

  async function owned(userId: string, id: string, position = 0): Promise<AgentDoc> {
    await progress.waitFor(position);
    const doc = await agents().get(id);
    if (!doc || doc.owner_id !== userId) throw httpError(404, 'agents.not_found');
    return doc;
  }

  router.get('/api/agents', contract({ access: 'user', responses: { 200: agentList } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const docs = await agents().find({ owner_id: user.id }, { sort: { updated_at: -1 } });
    ctx.body = { agents: docs.map(agentDto), tools: tools.list() };
  });

  router.post('/api/agents', contract({ access: 'user', body: agentCreateBody, responses: { 201: agentReply }, refusals: [409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, agentCreateBody);
    const agentId = randomUUID();
    const { position } = await run(agentId, user.id, { type: 'CreateAgent', data: { agentId, actorId: user.id, ...body, knownTools } });
    ctx.status = 201;
    ctx.body = agentDto(await owned(user.id, agentId, position));
  });

  /** Runs one tool with the arguments given; with `agent_id`, the run is kept in that agent's history. */
  router.post('/api/agents/tools/test', contract({ access: 'user', body: toolTestBody, responses: { 200: toolTestResult }, refusals: [404] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const body = parseBody(ctx, toolTestBody);
    if (body.agent_id) await owned(user.id, body.agent_id);
    const started = performance.now();
    const signal = AbortSignal.timeout(TEST_TIMEOUT_MS);
    let outcome: { ok: true; result: unknown; count: number } | { ok: false; error: string; refusal?: CodedError };
    try {
      const result = await tools.run(body.tool, body.args, { userId: user.id, signal });
      outcome = { ok: true, result: result.data, count: result.count };
    } catch (error) {
      if (!(error instanceof ToolError)) {
        if (!signal.aborted) throw error;
        const timedOut = refusal('agents.tool_timeout', { seconds: TEST_TIMEOUT_MS / 1000 });
        outcome = { ok: false, error: chineseText(timedOut), refusal: timedOut };
      } else if (error.reason === 'unknown_tool' && error.refusal) {
        throw invalidField(['tool'], 'agents.unknown_tool', error.refusal.params as ErrorParams<'agents.unknown_tool'>);
      } else if (error.reason === 'invalid_args') {
        // Arguments the tool's schema refuses are the form's mistake, field by field; the tool never ran.
        throw validationError(error.issues.map((issue) => ({ ...issue, path: ['args', ...issue.path] })), 'body');
      } else outcome = { ok: false, error: error.message, ...(error.refusal && { refusal: error.refusal }) };
    }
    const durationMs = Math.round(performance.now() - started);
    if (body.agent_id) {
      const summary = outcome.ok ? JSON.stringify(outcome.result) : outcome.error;
      const failure = outcome.ok ? undefined : outcome.refusal;
      const { position } = await run(body.agent_id, user.id, { type: 'RecordToolTest', data: { agentId: body.agent_id, actorId: user.id, tool: body.tool, ok: outcome.ok, summary, ...(failure && { refusal: failure }), durationMs } });
      await progress.waitFor(position);
    }
    ctx.body = { tool: body.tool, ok: outcome.ok, duration_ms: durationMs, ...(outcome.ok ? { result: outcome.result, count: outcome.count } : { error: outcome.error, ...outcome.refusal }) };
  });

  router.get('/api/agents/:id', contract({ access: 'user', params: idParam, responses: { 200: agentDetail } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const doc = await owned(user.id, id);
    const tests = await services.readStore.collection<AgentToolTestDoc>(AGENT_TOOL_TESTS).find({ agent_id: id }, { sort: { at: -1 }, limit: RECENT_TESTS });
    ctx.body = { ...agentDto(doc), recent_tests: tests.map((test) => ({ tool: test.tool, ok: test.ok, summary: test.summary, ...test.refusal, duration_ms: test.duration_ms, at: test.at })) };
  });

  router.patch('/api/agents/:id', contract({ access: 'user', params: idParam, body: agentUpdateBody, responses: { 200: agentReply }, refusals: [409] }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, agentUpdateBody);
    const changes = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
    const { position } = await run(id, user.id, { type: 'UpdateAgent', data: { agentId: id, actorId: user.id, ...changes, knownTools } });
    ctx.body = agentDto(await owned(user.id, id, position));
  });

  router.delete('/api/agents/:id', contract({ access: 'user', params: idParam, responses: { 200: deleted } }), async (ctx) => {
    const user = await requireUser(services, ctx);
    const { id } = parseParams(ctx.params, idParam);
    const { position } = await run(id, user.id, { type: 'DeleteAgent', data: { agentId: id, actorId: user.id } });
    await progress.waitFor(position);
    ctx.body = { deleted: true };
  });

  return router;
}
