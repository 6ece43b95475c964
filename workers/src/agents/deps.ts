import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import type { EventStore } from '@scriptorium/infra/eventstore/port';
import type { Logger } from '@scriptorium/infra/log';
import type { BudgetGuard } from '@scriptorium/backend/domain/budget/guard';
import type { ModelProvider } from '../model/port.ts';
import type { MaterialPort } from './material.ts';
import type { ToolRegistry } from '../tools/registry.ts';

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
  /** Where the hit came from: `web`, or the kind of local material (note, upload, cognition…). */
  source: string;
  /** The local document's id, for hits from the user's own material. */
  id?: string;
}

export interface SearchOptions {
  limit: number;
  signal?: AbortSignal;
  userId: string;
}

/** Web search (SearXNG) and the search over a user's own material answer alike. */
export interface SearchPort {
  search(query: string, options: SearchOptions): Promise<SearchHit[]>;
}

export interface FetchedPage {
  url: string;
  title: string;
  text: string;
  excerpt: string;
}

export interface PageFetcherPort {
  fetch(url: string, options: { signal?: AbortSignal }): Promise<FetchedPage>;
}

/** What every agent job is given: the log, the deciders' handler, the model and the budget. */
export interface AgentDeps {
  events: EventStore;
  commands: CommandHandler;
  model: ModelProvider;
  budget: BudgetGuard;
  log: Logger;
  clock: () => Date;
  /** The web search, when one is configured (`SEARCH_URL`); used only in sessions with search on. */
  webSearch?: SearchPort;
  /** Search over the user's notes, uploads, cognition and earlier sources: works offline. */
  localSearch?: SearchPort;
  /** Reads a web page for the research agent; absent means results are used by their snippets. */
  fetcher?: PageFetcherPort;
  /** The files and notes the user attached to a session; absent means none are read. */
  material?: MaterialPort;
  /** The platform's own tools (the user's material, clock, calculator…); absent means none are run. */
  tools?: ToolRegistry;
}
