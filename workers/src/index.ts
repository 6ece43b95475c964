import type { JobQueue, QueueWorker } from '@scriptorium/infra/queue/port';
import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider } from '@scriptorium/domain/conversation/decide';
import { AGENT_QUEUE } from '@scriptorium/domain/conversation/jobs';
import type { AgentDeps } from './agents/deps.ts';
import { agentHandlers } from './agents/index.ts';
import { jobData } from './agents/poe_llm/agent.ts';

/**
 * The worker role: takes agent jobs from the queue. Agents record their own expected failures; one
 * that throws still ends its reply as failed, so no session is left busy forever.
 */
export function startWorkers(deps: AgentDeps & { queue: JobQueue }, concurrency = 8): QueueWorker {
  const handlers = agentHandlers(deps);
  return deps.queue.process(
    AGENT_QUEUE,
    async (job) => {
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
    },
    { concurrency },
  );
}
