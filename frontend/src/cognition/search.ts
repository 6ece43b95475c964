/** Long enough that a word typed at normal speed is one search, short enough to feel live. */
export const SEARCH_DEBOUNCE_MS = 300;
/** The server refuses longer queries (422); cutting here keeps typing from turning into errors. */
export const MAX_QUERY = 200;

export const normaliseQuery = (text: string): string => text.trim().replace(/\s+/gu, ' ').slice(0, MAX_QUERY);

export type SearchInput = { kind: 'typed'; text: string } | { kind: 'enter'; text: string } | { kind: 'cleared' };

/** What the search box does next. Any new input first cancels a search still waiting. */
export type SearchStep = { kind: 'none' } | { kind: 'wait'; query: string; ms: number } | { kind: 'now'; query: string };

export interface SearchSituation {
  /** The query the results on screen answer. */
  applied: string;
  /**
   * Whether the results are on this screen, so typing can update them in place. Elsewhere (a
   * cognition's page, the library) only Enter searches, since it leaves the current page.
   */
  live: boolean;
}

export function searchStep(input: SearchInput, { applied, live }: SearchSituation): SearchStep {
  switch (input.kind) {
    case 'typed': {
      const query = normaliseQuery(input.text);
      // Typing back to what is on screen (or adding a trailing space) needs no search.
      if (!live || query === applied) return { kind: 'none' };
      return { kind: 'wait', query, ms: SEARCH_DEBOUNCE_MS };
    }
    case 'enter': {
      const query = normaliseQuery(input.text);
      return live && query === applied ? { kind: 'none' } : { kind: 'now', query };
    }
    case 'cleared':
      // Away from the platform there are no results to widen; emptying the box only empties it.
      return !live || applied === '' ? { kind: 'none' } : { kind: 'now', query: '' };
  }
}
