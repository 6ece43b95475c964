import { useQueryClient } from '@tanstack/react-query';
import { queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { downloadTrajectory, PANEL_LIMIT, trajectoriesApi, type TrajectoryFile } from './api.ts';

type TrajectoryList = Awaited<ReturnType<typeof trajectoriesApi.list>>;

/** The user's trajectories, one cache for the CLI sub-panel and the page, so a change on one shows on the other. */
export const useTrajectoryList = (enabled = true) => useApiQuery({ queryKey: queryKeys.trajectories, queryFn: () => trajectoriesApi.list(PANEL_LIMIT, 0), enabled });

export const useTrajectory = (fileId: string | null) =>
  useApiQuery({ queryKey: queryKeys.trajectory(fileId ?? ''), queryFn: () => trajectoriesApi.get(fileId!), enabled: fileId !== null });

const withFile = (list: TrajectoryList | undefined, change: (files: TrajectoryFile[]) => TrajectoryFile[]): TrajectoryList | undefined =>
  list && { ...list, files: change(list.files) };

/** A star shows at once and goes back if the server refuses it. */
export function useSetFavorite() {
  const queries = useQueryClient();
  const mark = (fileId: string, favorite: boolean) =>
    queries.setQueryData<TrajectoryList>(queryKeys.trajectories, (list) => withFile(list, (files) => files.map((file) => (file.file_id === fileId ? { ...file, favorite } : file))));
  return useApiMutation({
    mutationFn: ({ fileId, favorite }: { fileId: string; favorite: boolean }) => trajectoriesApi.setFavorite(fileId, favorite),
    onMutate: ({ fileId, favorite }) => mark(fileId, favorite),
    onError: (_error, { fileId, favorite }) => mark(fileId, !favorite),
  });
}

export function useRemoveTrajectory() {
  const queries = useQueryClient();
  return useApiMutation({
    mutationFn: (fileId: string) => trajectoriesApi.remove(fileId),
    onSuccess: (_result, fileId) => {
      queries.setQueryData<TrajectoryList>(queryKeys.trajectories, (list) => list && { ...list, total: list.total - 1, files: list.files.filter((file) => file.file_id !== fileId) });
      queries.removeQueries({ queryKey: queryKeys.trajectory(fileId) });
    },
  });
}

/** A shared session as its link shows it; a link that is gone is not asked for again. */
export const useSharedTrajectory = (token: string) => useApiQuery({ queryKey: queryKeys.shared('trajectory', token), queryFn: () => trajectoriesApi.shared(token), retry: false });

/** The public ranking, the 50 most active. */
export const useLeaderboard = () => useApiQuery({ queryKey: queryKeys.leaderboard, queryFn: () => trajectoriesApi.leaderboard(50) });

/** Downloads a trajectory file (own or shared) under the name the server gives it; the failure is the mutation's. */
export const useDownloadTrajectory = () => useApiMutation({ mutationFn: ({ path, fallbackName }: { path: string; fallbackName: string }) => downloadTrajectory(path, fallbackName) });
