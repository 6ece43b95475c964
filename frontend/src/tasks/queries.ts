import { useMutationState } from '@tanstack/react-query';
import { queryClient, queryKeys, useApiQuery, useApiMutation } from '../api/query.ts';
import type { ApiError } from '../api/client.ts';
import { tasksApi, type TaskSummary } from './api.ts';

/** Read afresh each time the status dialog opens (tasks complete elsewhere meanwhile), kept only while it is open. */
const WHILE_OPEN = { staleTime: 0, gcTime: 0 } as const;

/** Every claim of this page, whichever panel made it: the list shows each one's own progress. */
const CLAIM = ['tasks', 'claim'] as const;

/** Today's tasks, made first if the day has none yet (a failure there still shows what the summary says). */
export const useTaskSummary = () =>
  useApiQuery({ queryKey: queryKeys.tasks('summary'), queryFn: () => tasksApi.ensureDaily().catch(() => undefined).then(tasksApi.summary), ...WHILE_OPEN });

export const useCoinBalance = () => useApiQuery({ queryKey: queryKeys.tasks('coins'), queryFn: tasksApi.coinBalance, ...WHILE_OPEN });

/** A claim that settled as claimed counts at once, before the refreshed summary arrives. */
async function markClaimed(taskId: string): Promise<void> {
  // A summary read that left before this claim settled would bring the reward back as unclaimed.
  await queryClient.cancelQueries({ queryKey: queryKeys.tasks('summary') });
  queryClient.setQueryData<TaskSummary>(queryKeys.tasks('summary'), (current) => current && { ...current, tasks: current.tasks.map((task) => (task.task_id === taskId ? { ...task, rewards_claimed: true } : task)) });
}

/** Claimed meanwhile (another tab, a double click): not a failure, the list and balances are what is stale. */
export const claimedMeanwhile = (error: ApiError | null): boolean => error?.code === 'tasks.reward_claimed';

/**
 * Claim a task's reward. Several claims may run at once (`useClaimsPending` names them); the hook's
 * own state is the latest claim's, which is what the panel's notice reports.
 */
export const useClaimTask = () =>
  useApiMutation({
    mutationKey: CLAIM,
    mutationFn: (taskId: string) => tasksApi.claim(taskId),
    onSuccess: (_result, taskId) => markClaimed(taskId),
    onError: async (error, taskId) => {
      if (claimedMeanwhile(error)) await markClaimed(taskId);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.tasks('summary') });
      void queryClient.invalidateQueries({ queryKey: queryKeys.tasks('coins') });
    },
  });

/** The tasks whose claim is under way. */
export function useClaimsPending(): ReadonlySet<string> {
  const pending = useMutationState({ filters: { mutationKey: CLAIM, status: 'pending' }, select: (mutation) => mutation.state.variables as string });
  return new Set(pending);
}
