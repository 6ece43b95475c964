import type { JobContext, JobQueue, QueueWorker } from '@scriptorium/infra/queue/port';
import { LONG_LANE_SLOTS } from '@scriptorium/domain/engineer/demo';
import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider } from '@scriptorium/domain/conversation/decide';
import { AGENT_QUEUE, LONG_QUEUE } from '@scriptorium/domain/conversation/jobs';
import { DEFAULT_RESEARCH_LIMITS, researchSlots, type AgentDeps } from './agents/deps.ts';
import { agentHandlers } from './agents/index.ts';
import { jobData } from './agents/poe_llm/agent.ts';
import { sweepDemoWorkspaces } from './agents/engineer_demo/agent.ts';

const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * The worker role: takes agent jobs from the queue, and long jobs from their own lane with slots of
 * their own (`LONG_QUEUE`). Agents record their own expected failures; one that throws still ends its
 * reply as failed, so no session is left busy forever.
 */
export function startWorkers(deps: AgentDeps & { queue: JobQueue }, concurrency = 8, longConcurrency = LONG_LANE_SLOTS): QueueWorker {
  // One set of slots per worker process: every research run it takes shares them.
  const handlers = agentHandlers({ ...deps, researchSlots: deps.researchSlots ?? researchSlots(deps.researchLimits ?? DEFAULT_RESEARCH_LIMITS) });
  const run = async (job: JobContext) => {
    const handler = handlers.get(job.name);
    // Which process runs which job: what an operator (or a fault test) needs after a worker dies.
    deps.log.info({ job: job.id, agent: job.name }, 'agent job started');
    try {
      if (!handler) throw new Error(`no agent handles ${job.name}`);
      return await handler(job);
    } catch (error) {
      deps.log.error({ err: error, job: job.id, agent: job.name }, 'agent job failed');
      const data = jobData.safeParse(job.data);
      if (!data.success) return undefined;
      await deps.commands.handle(
        conversationDecider,
        conversationStream(data.data.sessionId),
        {
          type: 'CompleteReply',
          data: { messageId: data.data.replyId, outcome: 'failed', error: handler ? '生成回复时出错' : '该智能体暂不可用' },
          metadata: { now: deps.clock(), userId: data.data.userId, correlationId: data.data.replyId },
        },
        { commandId: `${data.data.replyId}:complete` },
      );
      return undefined;
    }
  };
  const lanes = [deps.queue.process(AGENT_QUEUE, run, { concurrency }), deps.queue.process(LONG_QUEUE, run, { concurrency: longConcurrency })];
  // Workspaces past their retention go even when no demo starts to sweep them.
  const sweeping = setInterval(() => sweepDemoWorkspaces(deps), SWEEP_EVERY_MS).unref();
  return {
    close: async () => {
      clearInterval(sweeping);
      await Promise.all(lanes.map((lane) => lane.close()));
    },
  };
}
