import { useInfiniteQuery } from '@tanstack/react-query';
import { listCognitions, PAGE_SIZE, type CognitionSummary } from './api.ts';
import { toApiError, type ApiError } from '../api/client.ts';
import { queryKeys } from '../api/query.ts';

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

/** One scope's cognitions for a query, a page at a time, cached by the query client; a new query or scope starts over. */
export function useCognitionList(scope: 'public' | 'mine', q: string, enabled = true): CognitionList {
  const query = useInfiniteQuery({
    queryKey: queryKeys.cognitions(scope, q),
    queryFn: ({ pageParam, signal }) => listCognitions({ q, scope, skip: pageParam, limit: PAGE_SIZE }, signal).catch((error: unknown) => Promise.reject(toApiError(error))),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return loaded < last.total && last.items.length > 0 ? loaded : undefined;
    },
    enabled,
  });
  // A cognition made public meanwhile shifts the pages; never show one card twice.
  const seen = new Set<string>();
  const items = (query.data?.pages ?? []).flatMap((page) => page.items).filter((item) => !seen.has(item.id) && seen.add(item.id));
  return {
    items,
    total: query.data?.pages.at(-1)?.total ?? 0,
    loading: query.isPending && enabled,
    loadingMore: query.isFetchingNextPage,
    error: query.error ? toApiError(query.error) : null,
    hasMore: query.hasNextPage,
    loadMore: () => void query.fetchNextPage(),
    reload: () => void query.refetch(),
  };
}
