import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { z } from 'zod';
import type { JobContext } from '@scriptorium/infra/queue/port';
import { sweepWorkspaces, useWorkspace } from '@scriptorium/infra/sandbox/workspaces';
import { defaultSandbox, SandboxUnavailable, UnrunnableCommand, type Sandbox, type SandboxLimit, type SandboxResult } from '@scriptorium/infra/sandbox/bwrap';
import type { DemoJobData } from '@scriptorium/domain/engineer/demo';
import { engineerDecider } from '@scriptorium/domain/engineer/decide';
import { EngineerService } from '@scriptorium/domain/engineer/service';
import { engineerStream, type EngineerNodesAppended } from '@scriptorium/domain/engineer/session';
import { errorText, type ErrorCode } from '@scriptorium/domain/protocol/errors';
import type { EngineerNode } from '@scriptorium/domain/protocol/engineer';
import { completeAccounted } from '@scriptorium/domain/usage/accounted';
import type { AgentDeps } from '../deps.ts';
import { extractJson } from '../deep_cognition/run.ts';
import { OFFLINE_PLAN_TITLE, offlinePlan, PLAN_PROMPT, planSchema, taskLanguage, type DemoStep } from './plan.ts';

/** Where the demo's workspaces are, one per session. */
export const DEMO_WORKSPACES = join(tmpdir(), 'scriptorium-demo');
/** How long a workspace is kept after its last command; then its files go (a walk wrote 1 GB into one, and 22 were left). */
export const DEMO_WORKSPACE_RETENTION_MS = 60 * 60_000;

/** Removes the demo workspaces past their retention; each demo does so as it starts, and the worker now and then. */
export function sweepDemoWorkspaces(deps: Pick<AgentDeps, 'clock' | 'log'>): void {
  const removed = sweepWorkspaces(DEMO_WORKSPACES, DEMO_WORKSPACE_RETENTION_MS, deps.clock());
  if (removed.length > 0) deps.log.info({ removed: removed.length }, 'removed demo workspaces past their retention');
}

const jobData = z.object({ sessionId: z.string().min(1), ownerId: z.string().min(1), taskDescription: z.string() }) satisfies z.ZodType<DemoJobData>;

/** Files of the workspace by path, with a fingerprint of their content, to tell what a step changed. */
function snapshot(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.set(relative(root, path), `${statSync(path).size}:${statSync(path).mtimeMs}`);
    }
  };
  walk(root);
  return files;
}

function changes(before: Map<string, string>, after: Map<string, string>): Array<{ path: string; change: 'create' | 'modify' | 'delete' }> {
  const changed: Array<{ path: string; change: 'create' | 'modify' | 'delete' }> = [];
  for (const [path, print] of after) if (before.get(path) !== print) changed.push({ path, change: before.has(path) ? 'modify' : 'create' });
  for (const path of before.keys()) if (!after.has(path)) changed.push({ path, change: 'delete' });
  return changed;
}

/**
 * The demo execution: plan (with the model, or the labelled offline template), then each step as a
 * thought, a command run in the bubblewrap sandbox, its output and the files it changed. Node ids
 * follow the step, so a re-run job skips what the log holds; it checks the session between steps
 * and ends when a user stopped it.
 */
export async function runEngineerDemo(deps: AgentDeps, job: JobContext<unknown>): Promise<void> {
  const data = jobData.parse(job.data);
  const engineer = new EngineerService(deps);
  // Nodes order by time then id; a millisecond of its own for each keeps them in the order of the work.
  let last = 0;
  const now = () => new Date((last = Math.max(deps.clock().getTime(), last + 1))).toISOString();
  try {
    await demo(deps, job, data, engineer, now);
  } catch (error) {
    // The worker is closing: recovery runs the job again from the nodes the log holds.
    if (job.signal.aborted) throw error;
    // Anything else would leave the demo "running" for good: the worker does not retry a job that threw.
    deps.log.error({ err: error, sessionId: data.sessionId }, 'engineer demo failed');
    if ((await deps.commands.load(engineerDecider, engineerStream(data.sessionId))).state.status !== 'running') return;
    await engineer.appendNodes(
      data.ownerId,
      data.sessionId,
      [{ id: 'demo-failed', node_type: 'error', parent_id: null, status: 'failed', timestamp: now(), payload: errorPayload({ code: 'engineer.demo_failed', params: {} }) }],
      'failed',
    );
  }
}

async function demo(deps: AgentDeps, job: JobContext<unknown>, { sessionId, ownerId, taskDescription }: DemoJobData, engineer: EngineerService, now: () => string): Promise<void> {
  const sandbox = deps.sandbox ?? defaultSandbox;
  const recorded = async () => {
    const events = await deps.events.readStream(engineerStream(sessionId));
    return events.flatMap((event) => (event.type === 'EngineerNodesAppended' ? (event.data as EngineerNodesAppended['data']).nodes : []));
  };
  const running = async () => (await deps.commands.load(engineerDecider, engineerStream(sessionId))).state.status === 'running';
  if (!(await running())) return;

  const done = await recorded();
  const planNode = done.find((node) => node.id === 'plan');
  let steps = planNode?.node_type === 'tool_call' ? (planNode.payload.arguments.steps as DemoStep[] | undefined) : undefined;
  if (!steps) {
    const planned = await plan(deps, ownerId, sessionId, taskDescription);
    await engineer.appendNodes(ownerId, sessionId, [
      { id: 'task', node_type: 'message', parent_id: null, status: 'completed', timestamp: now(), payload: { role: 'user', text: taskDescription } },
      { id: 'plan', node_type: 'tool_call', parent_id: 'task', status: 'completed', timestamp: now(), title: planned.offline ? OFFLINE_PLAN_TITLE[taskLanguage(taskDescription)] : taskLanguage(taskDescription) === 'zh' ? '计划' : 'Plan', payload: { name: 'plan', arguments: { steps: planned.steps, offline: planned.offline } }, ...(planned.tokens !== undefined && { tokens: planned.tokens }) },
    ]);
    steps = planned.steps;
  }

  sweepDemoWorkspaces(deps);
  const workspace = useWorkspace(DEMO_WORKSPACES, sessionId, deps.clock());
  const seen = new Set(done.map((node) => node.id));
  for (const [index, step] of steps.entries()) {
    if (seen.has(`step-${index}-out`)) continue;
    if (!(await running())) return;
    const id = `step-${index}`;
    await engineer.appendNodes(ownerId, sessionId, [
      { id: `${id}-thought`, node_type: 'thought', parent_id: 'plan', status: 'completed', timestamp: now(), payload: { text: step.thought } },
      { id: `${id}-cmd`, node_type: 'command', parent_id: `${id}-thought`, status: 'completed', timestamp: now(), payload: { command: step.command, cwd: '/workspace' } },
    ]);
    useWorkspace(DEMO_WORKSPACES, sessionId, deps.clock());
    const before = snapshot(workspace);
    let result: SandboxResult;
    try {
      result = await sandbox.run(workspace, step.command, { signal: job.signal });
    } catch (error) {
      // A command no process can take is a failed step, as a command that exits non-zero is; the demo goes on.
      if (error instanceof UnrunnableCommand) {
        await engineer.appendNodes(ownerId, sessionId, [{ id: `${id}-out`, node_type: 'error', parent_id: `${id}-cmd`, status: 'failed', timestamp: now(), payload: errorPayload({ code: 'engineer.command_unrunnable', params: {} }) }]);
        continue;
      }
      if (!(error instanceof SandboxUnavailable)) throw error;
      await engineer.appendNodes(ownerId, sessionId, [{ id: `${id}-out`, node_type: 'error', parent_id: `${id}-cmd`, status: 'failed', timestamp: now(), payload: errorPayload(unavailable(error, sandbox)) }], 'failed');
      return;
    }
    // Stopped by the user (the session is ended and takes no more nodes) or by the worker closing (recovery runs the step again).
    if (result.limit === 'stopped') return;
    const files = changes(before, snapshot(workspace)).map(({ path, change }): EngineerNode => ({
      id: `${id}-file-${createHash('sha1').update(path).digest('hex').slice(0, 12)}`,
      node_type: 'file_change',
      parent_id: `${id}-cmd`,
      status: 'completed',
      timestamp: now(),
      payload: { path, change },
    }));
    const bound = result.limit === null ? null : limitMessage(result.limit, sandbox);
    await engineer.appendNodes(ownerId, sessionId, [
      { id: `${id}-out`, node_type: 'output', parent_id: `${id}-cmd`, status: result.exitCode === 0 && bound === null ? 'completed' : 'failed', timestamp: now(), payload: { stream: 'combined', text: result.output, exit_code: result.exitCode } },
      ...(bound ? [{ id: `${id}-limit`, node_type: 'error', parent_id: `${id}-cmd`, status: 'failed', timestamp: now(), payload: errorPayload(bound) } satisfies EngineerNode] : []),
      ...files,
    ]);
  }
  if (await running()) await engineer.setStatus(ownerId, sessionId, 'completed');
}

/** The steps: the model's when one is configured and answers well, the offline template otherwise. */
async function plan(deps: AgentDeps, ownerId: string, sessionId: string, task: string): Promise<{ steps: DemoStep[]; offline: boolean; tokens?: number }> {
  if (deps.model.offline) return { steps: offlinePlan(task), offline: true };
  try {
    const completion = await completeAccounted(deps, deps.model, ownerId, `engineer-demo:${sessionId}:plan`, { messages: [{ role: 'system', content: PLAN_PROMPT }, { role: 'user', content: task }] });
    const parsed = planSchema.safeParse(extractJson(completion.text));
    if (parsed.success) return { steps: parsed.data.steps, offline: false, tokens: completion.usage.promptTokens + completion.usage.completionTokens };
  } catch (error) {
    deps.log.warn({ err: error, sessionId }, 'demo plan failed; using the offline template');
  }
  return { steps: offlinePlan(task), offline: true };
}

type Coded = { code: ErrorCode; params: Record<string, string | number> };

/** An error node's payload: the Chinese text, and the code with its params for a reader of another language. */
const errorPayload = ({ code, params }: Coded) => ({ message: errorText(code, params), code, ...(Object.keys(params).length > 0 && { params }) });

/** Why nothing ran, in the catalogue's words: bwrap missing, or there but refused by the kernel. */
function unavailable(error: SandboxUnavailable, sandbox: Sandbox): Coded {
  return error.kind === 'missing' ? { code: 'engineer.sandbox_missing', params: { path: sandbox.bwrapPath } } : { code: 'engineer.sandbox_refused', params: { reason: error.reason } };
}

/** Which limit stopped a command, with the limit's value, for the error node under it. */
function limitMessage(limit: Exclude<SandboxLimit, 'stopped'>, sandbox: Sandbox): Coded {
  const { limits } = sandbox;
  switch (limit) {
    case 'time':
      return { code: 'engineer.sandbox_time', params: { seconds: limits.timeoutMs / 1000 } };
    case 'output':
      return { code: 'engineer.sandbox_output', params: { kb: limits.maxOutputBytes / 1024 } };
    case 'memory':
      return { code: 'engineer.sandbox_memory', params: { mb: limits.memoryBytes / 1024 / 1024 } };
    case 'processes':
      return { code: 'engineer.sandbox_processes', params: { count: limits.processes } };
    case 'disk':
      return { code: 'engineer.sandbox_disk', params: { mb: limits.diskBytes / 1024 / 1024, entries: limits.entries, tmp: limits.tmpBytes / 1024 / 1024 } };
  }
}
