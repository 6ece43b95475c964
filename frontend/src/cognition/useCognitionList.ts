import { useCallback, useEffect, useRef, useState } from 'react';
import { listCognitions, PAGE_SIZE, type CognitionSummary } from '../api/cognition.ts';
import { toApiError, type ApiError } from '../api/client.ts';

export interface CognitionList {
  items: CognitionSummary[];
  total: number;
  loading: boolean;
  loadingMore: boolean;
  error: ApiError | null;
  hasMore: boolean;
  loadMore(): void;
  reload(): void;
}

interface ListState {
  items: CognitionSummary[];
  total: number;
  loading: boolean;
  loadingMore: boolean;
  error: ApiError | null;
}

const initial: ListState = { items: [], total: 0, loading: true, loadingMore: false, error: null };

/** One scope's cognitions for a query, a page at a time; a new query or scope starts over. */
export function useCognitionList(scope: 'public' | 'mine', q: string, enabled = true): CognitionList {
  const [state, setState] = useState<ListState>(initial);
  const [generation, setGeneration] = useState(0);
  const more = useRef<AbortController | null>(null);

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    more.current?.abort();
    setState((previous) => ({ ...previous, loading: true, error: null }));
    listCognitions({ q, scope, skip: 0, limit: PAGE_SIZE }, controller.signal).then(
      (page) => setState({ items: page.items, total: page.total, loading: false, loadingMore: false, error: null }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ ...initial, loading: false, error: toApiError(error) });
      },
    );
    return () => controller.abort();
  }, [scope, q, enabled, generation]);

  const loadMore = useCallback(() => {
    if (state.loading || state.loadingMore || state.items.length >= state.total) return;
    const controller = new AbortController();
    more.current = controller;
    setState((previous) => ({ ...previous, loadingMore: true, error: null }));
    listCognitions({ q, scope, skip: state.items.length, limit: PAGE_SIZE }, controller.signal).then(
      (page) =>
        setState((previous) => {
          // A cognition made public meanwhile shifts the pages; never show one card twice.
          const seen = new Set(previous.items.map((item) => item.id));
          return { ...previous, items: [...previous.items, ...page.items.filter((item) => !seen.has(item.id))], total: page.total, loadingMore: false };
        }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState((previous) => ({ ...previous, loadingMore: false, error: toApiError(error) }));
      },
    );
  }, [q, scope, state.loading, state.loadingMore, state.items.length, state.total]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);

  return { ...state, hasMore: state.items.length < state.total, loadMore, reload };
}
