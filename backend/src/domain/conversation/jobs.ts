import type { AgentName } from './conversation.ts';

/** The queue every agent job goes through; the job's name is the agent. */
export const AGENT_QUEUE = 'agents';

/** What the api hands a worker: ids only; the worker reads the rest from the log. */
export interface AgentJobData {
  sessionId: string;
  userId: string;
  agent: AgentName;
  /** The reply being written; also the job id, so a reply is queued once. */
  replyId: string;
  replyTo: string;
  /** Set when resuming: the interrupted reply whose text this one continues. */
  continues?: string;
}
