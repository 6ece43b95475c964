import type { AgentName, ResearchStage } from './conversation.ts';

/** The queue every agent job goes through; the job's name is the agent. */
export const AGENT_QUEUE = 'agents';
/**
 * The lane of long jobs (the engineer demo: minutes of sandboxed commands), with slots of its own, so
 * that however many are running or waiting, chat and research replies never queue behind them.
 */
export const LONG_QUEUE = 'agents-long';

/** What the api hands a worker: ids only; the worker reads the rest from the log. */
export interface AgentJobData {
  sessionId: string;
  userId: string;
  agent: AgentName;
  /** The reply being written; the first job's id, so a reply is queued once. */
  replyId: string;
  replyTo: string;
  /** Set when resuming: the interrupted reply whose text this one continues. */
  continues?: string;
  /** For deep_cognition: which part of the research this job runs (absent: the start, which may ask questions). */
  stage?: ResearchStage;
}

/** A targeted edit of the canvas: job name `targeted_edit`, job id the request id. */
export interface TargetedEditJobData {
  sessionId: string;
  userId: string;
  requestId: string;
  instruction: string;
  snippet: string;
  fromVersion: number;
  /** Where the selection starts in the version's text, when the client said. */
  offset?: number;
}
