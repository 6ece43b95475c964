import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import type { EventStore } from '@scriptorium/infra/eventstore/port';
import type { Logger } from '@scriptorium/infra/log';
import type { BudgetGuard } from '@scriptorium/domain/budget/guard';
import type { PageFetcherPort } from '@scriptorium/infra/fetch/port';
import type { SearchPort } from '@scriptorium/infra/search/port';
import type { EmbeddingPort } from '@scriptorium/infra/embeddings/port';
import type { ModelProvider, ModelRouter } from '@scriptorium/infra/model/port';
import type { ModelRole } from '@scriptorium/infra/model/profile';
import type { MaterialPort } from './material.ts';
import type { ToolRegistry } from '@scriptorium/domain/tools/registry';
import type { Sandbox } from '@scriptorium/infra/sandbox/bwrap';
import { FairSlots } from './fairSlots.ts';

/** What every agent job is given: the log, the deciders' handler, the model and the budget. */
export interface AgentDeps {
  events: EventStore;
  commands: CommandHandler;
  model: ModelProvider;
  /** The model per role, when roles have models of their own; absent, `model` serves every role. */
  models?: ModelRouter;
  budget: BudgetGuard;
  log: Logger;
  clock: () => Date;
  /**
   * The web search, used only in sessions with search on. `available` false: none is configured at
   * the moment (an administrator cleared it), so the session searches the user's material instead.
   */
  webSearch?: SearchPort & { readonly available?: boolean };
  /** Search over the user's notes, uploads, cognition and earlier sources: works offline. */
  localSearch?: SearchPort;
  /** Vectors for the research's chunks and focuses, fused with BM25; absent means BM25 alone. */
  embeddings?: EmbeddingPort;
  /** Reads a web page for the research agent; absent means results are used by their snippets. */
  fetcher?: PageFetcherPort;
  /** The files and notes the user attached to a session; absent means none are read. */
  material?: MaterialPort;
  /** The platform's own tools (the user's material, clock, calculator…); absent means none are run. */
  tools?: ToolRegistry;
  /** How far one research run may spread and dig; absent means `DEFAULT_RESEARCH_LIMITS`. */
  researchLimits?: ResearchLimits;
  /** The worker's slots every research run shares, fairly between users; absent, runs are bound only by their own pools. */
  researchSlots?: ResearchSlots;
  /** How long a proposed plan is shown, open to edits, before it starts by itself; absent or 0: at once (unless the user reviews plans). */
  planCountdownMs?: number;
  /** Where the demo runs its commands; absent means this machine's bubblewrap at /usr/bin/bwrap. */
  sandbox?: Sandbox;
}

/** The research agent's bounds per run (config `RESEARCH_*`). */
export interface ResearchLimits {
  /** Model calls open at once. */
  modelConcurrency: number;
  /** Searches and page reads open at once. */
  fetchConcurrency: number;
  /** Model calls open at once over every run of one worker. */
  workerModelConcurrency: number;
  /** Searches and page reads open at once over every run of one worker. */
  workerFetchConcurrency: number;
  /** Search rounds per plan step, the planned one included. */
  maxRounds: number;
  /** Tokens the run may have used before no follow-up search starts. */
  followUpTokens: number;
  /** Tokens a run is reckoned to use: with less budget left, the chat says so before the plan. */
  tokensEstimate: number;
}

export const DEFAULT_RESEARCH_LIMITS: ResearchLimits = { modelConcurrency: 4, fetchConcurrency: 6, workerModelConcurrency: 8, workerFetchConcurrency: 12, maxRounds: 2, followUpTokens: 60_000, tokensEstimate: 40_000 };

/** The model for one role of a job, asked per call: an administrator may change it while the job runs. */
export function modelFor(deps: Pick<AgentDeps, 'model' | 'models'>, role: ModelRole): ModelProvider {
  return deps.models?.for(role) ?? deps.model;
}

/** One worker's model and fetch slots, shared by all its research runs. */
export interface ResearchSlots {
  model: FairSlots;
  fetch: FairSlots;
}

export const researchSlots = (limits: ResearchLimits): ResearchSlots => ({ model: new FairSlots(limits.workerModelConcurrency), fetch: new FairSlots(limits.workerFetchConcurrency) });
