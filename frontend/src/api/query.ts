import { QueryClient, useInfiniteQuery, useMutation, useQuery, type InfiniteData, type QueryKey, type UseInfiniteQueryOptions, type UseInfiniteQueryResult, type UseMutationOptions, type UseMutationResult, type UseQueryOptions, type UseQueryResult } from '@tanstack/react-query';
import { toApiError, type ApiError } from './client.ts';

/** Failures the client caused (or a missing resource) are answers: asking again changes nothing. */
const worthRetrying = (failureCount: number, error: ApiError): boolean => failureCount < 2 && (error.status === 0 || error.status >= 500);

/** The page's one query client: every read model the screens show is cached here. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: false,
      retry: (failureCount, error) => worthRetrying(failureCount, toApiError(error)),
    },
  },
});

/**
 * A read through the query client whose failure is already described by the error catalogue: every
 * screen reads `error.userMessage` / `error.status`, none translates errors itself.
 */
export function useApiQuery<T, D = T, K extends QueryKey = QueryKey>(options: Omit<UseQueryOptions<T, ApiError, D, K>, 'queryFn'> & { queryFn: () => Promise<T> }): UseQueryResult<D, ApiError> {
  const { queryFn, ...rest } = options;
  return useQuery<T, ApiError, D, K>({
    ...rest,
    queryFn: () => queryFn().catch((error: unknown) => Promise.reject(toApiError(error))),
  });
}

/**
 * A write whose failure is described by the error catalogue, as `useApiQuery` does for reads; its
 * pending state and error are the query client's, so no screen keeps a busy flag or an error by hand.
 */
export function useApiMutation<T, V = void, C = unknown>(options: Omit<UseMutationOptions<T, ApiError, V, C>, 'mutationFn'> & { mutationFn: (variables: V) => Promise<T> }): UseMutationResult<T, ApiError, V, C> {
  const { mutationFn, ...rest } = options;
  return useMutation<T, ApiError, V, C>({
    ...rest,
    mutationFn: (variables) => mutationFn(variables).catch((error: unknown) => Promise.reject(toApiError(error))),
  });
}

/** `useApiQuery` for a read that comes in pages (a cursor walk), each page's failure described the same way. */
export function useApiInfiniteQuery<T, P, K extends QueryKey = QueryKey>(
  options: Omit<UseInfiniteQueryOptions<T, ApiError, InfiniteData<T, P>, K, P>, 'queryFn'> & { queryFn: (pageParam: P) => Promise<T> },
): UseInfiniteQueryResult<InfiniteData<T, P>, ApiError> {
  const { queryFn, ...rest } = options;
  return useInfiniteQuery<T, ApiError, InfiniteData<T, P>, K, P>({
    ...rest,
    queryFn: ({ pageParam }) => queryFn(pageParam as P).catch((error: unknown) => Promise.reject(toApiError(error))),
  });
}

/** Query keys, so a change in one place refreshes every screen that shows it. */
export const queryKeys = {
  cloudHistory: ['research', 'cloud-history'] as const,
  models: ['research', 'models'] as const,
  speech: ['research', 'speech-status'] as const,
  researchBudget: ['research', 'budget'] as const,
  /** Whether the user reviews every plan before its research starts (a preference). */
  planReview: ['research', 'plan-review'] as const,
  sharedConversation: (shareId: string) => ['share', 'conversation', shareId] as const,
  /** A page of a session's (or a shared session's) history before a cursor; the cursor names fixed exchanges, so it never goes stale. */
  historyPage: (sessionId: string, before: string) => ['research', sessionId, 'history', before] as const,
  shared: (kind: string, id: string) => ['share', kind, id] as const,
  /** A research session's own links, as its owner manages them. */
  sessionShares: (sessionId: string) => ['research', sessionId, 'shares'] as const,
  account: (part: string) => ['account', part] as const,
  /** The task reward flow: the day's tasks and the coin balance their rewards add to. */
  tasks: (part: 'summary' | 'coins') => ['tasks', part] as const,
  manage: (...parts: unknown[]) => ['manage', ...parts] as const,
  /** Without arguments, every list of cognitions (to mark them all stale after a change). */
  cognitions: (...parts: [] | [scope: string, q: string]) => ['cognitions', ...parts] as const,
  cognition: (id: string) => ['cognition', id] as const,
  collections: ['collections'] as const,
  collection: (id: string) => ['collection', id] as const,
  agents: ['agents'] as const,
  agent: (id: string) => ['agents', id] as const,
  auditSearch: (filters: Record<string, string>) => ['audit', 'search', filters] as const,
  registrationSettings: ['registration-settings'] as const,
  engineer: (...parts: unknown[]) => ['engineer', ...parts] as const,
  collab: (...parts: unknown[]) => ['collab', ...parts] as const,
  notes: ['notes'] as const,
  oauthMetadata: ['oauth', 'metadata'] as const,
  trajectoryShares: (fileId: string) => ['trajectories', fileId, 'shares'] as const,
  trajectories: ['trajectories', 'list'] as const,
  trajectory: (fileId: string) => ['trajectories', fileId, 'detail'] as const,
  leaderboard: ['engineer', 'leaderboard'] as const,
  /** Apart from the tree's key, so the tree's refreshes never reload an open editor. */
  note: (id: string) => ['note', id] as const,
  ppt: (...parts: unknown[]) => ['ppt', ...parts] as const,
};
