import { join } from 'node:path';
import type { BlobStore } from '@scriptorium/infra/blob/port';
import type { EventStore } from '@scriptorium/infra/eventstore/port';
import type { Logger } from '@scriptorium/infra/log';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import { Reactor } from '@scriptorium/infra/eventsourcing/reactor';
import { sessionMaterial, type MaterialPort } from './agents/material.ts';
import { PageFetcher } from '@scriptorium/infra/fetch/fetcher';
import { corpusFeed } from './search/corpusFeed.ts';
import { LocalCorpus, LocalSearch } from '@scriptorium/infra/search/local';
import type { SearchPort } from '@scriptorium/infra/search/port';
import { createPlatformTools } from '@scriptorium/domain/tools/platform';
import type { ToolRegistry } from '@scriptorium/domain/tools/registry';

export interface ResearchTools {
  corpus: LocalCorpus;
  localSearch: LocalSearch;
  /** The web search as the connections say at each call (`available` false while none is set). */
  webSearch?: SearchPort & { readonly available?: boolean };
  fetcher: PageFetcher;
  tools: ToolRegistry;
  material: MaterialPort;
  /** Resolves once the local index holds everything the log had up to `position`. */
  indexed(position: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * What the research agents search and read with, for the worker role: the web search when one is
 * configured (Connections, or `SEARCH_URL` seeding them), the user's own material in a local index fed
 * from the log, what they attached to the session, the page fetcher (reading what `FETCH_ALLOW_HOSTS`
 * lets past its guard) and the platform tools.
 */
export async function startResearchTools(deps: {
  config: { DATA_DIR: string; FETCH_ALLOW_HOSTS?: readonly string[] };
  webSearch?: SearchPort & { readonly available?: boolean };
  events: EventStore;
  readStore: ReadStore;
  blobs: BlobStore;
  log: Logger;
  clock: () => Date;
}): Promise<ResearchTools> {
  const corpus = new LocalCorpus(join(deps.config.DATA_DIR, 'corpus.sqlite3'));
  const feed = new Reactor(deps.events, deps.readStore, [corpusFeed(corpus, deps.blobs)], deps.log);
  await feed.start();
  return {
    corpus,
    localSearch: new LocalSearch(corpus),
    ...(deps.webSearch && { webSearch: deps.webSearch }),
    fetcher: new PageFetcher({ allowHosts: deps.config.FETCH_ALLOW_HOSTS ?? [] }),
    tools: createPlatformTools({ corpus, clock: deps.clock }),
    material: sessionMaterial(deps),
    indexed: (position) => feed.waitFor(position),
    async close() {
      await feed.stop();
      corpus.close();
    },
  };
}
