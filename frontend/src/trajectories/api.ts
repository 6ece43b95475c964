import type { TrajectoryEvent, TrajectoryEventType } from '@scriptorium/domain/protocol/trajectories';
import type {
  CliLeaderboard,
  LeaderboardQuery,
  SharedTrajectory,
  TrajectoryFavorite,
  TrajectoryFavoriteBody,
  TrajectoryFiles,
  TrajectoryListQuery,
  TrajectoryShareBody,
  TrajectoryShared,
  TrajectoryShares,
  TrajectoryWithEvents,
} from '@scriptorium/domain/protocol/http/trajectories';
import type { Deleted, Revoked } from '@scriptorium/domain/protocol/http/acknowledged';
import { api } from '../api/client.ts';
import { downloadBlob } from '../api/research.ts';

export type { TrajectoryEvent, TrajectoryEventType };

export type { SharedTrajectory, TrajectoryFile, TrajectoryShare } from '@scriptorium/domain/protocol/http/trajectories';

/** The panel reads everything at once (spec §9: limit 10000). */
export const PANEL_LIMIT = 10_000;

const file = (id: string) => `/engineer/trajectory/files/${encodeURIComponent(id)}`;

export const trajectoriesApi = {
  list: (limit = 50, offset = 0) => api.get<TrajectoryFiles, TrajectoryListQuery>('/engineer/trajectory/files', { query: { limit, offset } }),
  get: (id: string) => api.get<TrajectoryWithEvents>(file(id)),
  setFavorite: (id: string, favorite: boolean) => api.put<TrajectoryFavorite, TrajectoryFavoriteBody>(`${file(id)}/favorite`, { json: { file_id: id, favorite } }),
  remove: (id: string) => api.delete<Deleted>(file(id)),
  share: (id: string, allowDownload: boolean, expiresIn: number | null) =>
    api.post<TrajectoryShared, TrajectoryShareBody>('/engineer/trajectory/share', { json: { file_id: id, share_settings: { allow_download: allowDownload }, expires_in: expiresIn } }),
  shares: (id: string) => api.get<TrajectoryShares>(`${file(id)}/shares`),
  revoke: (token: string) => api.delete<Revoked>(`/engineer/trajectory/share/${encodeURIComponent(token)}`),
  shared: (token: string) => api.get<SharedTrajectory>(`/engineer/trajectory/shared/${encodeURIComponent(token)}`),
  leaderboard: (limit: number) => api.get<CliLeaderboard, LeaderboardQuery>('/engineer/leaderboard', { query: { limit } }),
};

/** Downloads go through the authenticated client; the file keeps the name the server gives it. */
export async function downloadTrajectory(path: string, fallbackName: string): Promise<void> {
  const file = await api.getFile(path);
  downloadBlob(file.blob, file.filename ?? fallbackName);
}

export const downloadPath = {
  own: (id: string) => `${file(id)}/download`,
  shared: (token: string) => `/engineer/trajectory/shared/${encodeURIComponent(token)}/download`,
};
