import type { TrajectoryEvent, TrajectoryEventType } from '@scriptorium/domain/protocol/trajectories';
import { api } from './client.ts';
import { downloadBlob, rawRequest } from './research.ts';

export type { TrajectoryEvent, TrajectoryEventType };

export interface TrajectoryFile {
  file_id: string;
  id: string;
  filename: string;
  title: string;
  description: string;
  created_at: string;
  updated_at: string;
  trajectory_count: number;
  preview_data: Array<{ event_type: TrajectoryEventType; query: string }>;
  metadata: { session_id: string; project_name: string };
  favorite: boolean;
  active: boolean;
  size: number;
}

export interface SharedTrajectory extends Omit<TrajectoryFile, 'favorite'> {
  events: TrajectoryEvent[];
  share_settings: { allow_download: boolean };
  expires_at: string | null;
}

/** A live link to one of the user's trajectories (expired and revoked ones are not listed). */
export interface TrajectoryShare {
  token: string;
  share_url: string;
  allow_download: boolean;
  expires_at: string | null;
  created_at: string;
}

/** The panel reads everything at once (spec §9: limit 10000). */
export const PANEL_LIMIT = 10_000;

const file = (id: string) => `/engineer/trajectory/files/${encodeURIComponent(id)}`;

export const trajectoriesApi = {
  list: (limit = 50, offset = 0) => api.get<{ files: TrajectoryFile[]; total: number; active_sessions: number }>('/engineer/trajectory/files', { query: { limit, offset } }),
  get: (id: string) => api.get<TrajectoryFile & { events: TrajectoryEvent[] }>(file(id)),
  setFavorite: (id: string, favorite: boolean) => api.put<{ file_id: string; favorite: boolean }>(`${file(id)}/favorite`, { json: { file_id: id, favorite } }),
  remove: (id: string) => api.delete<{ deleted: boolean }>(file(id)),
  share: (id: string, allowDownload: boolean, expiresIn: number | null) =>
    api.post<{ token: string; share_url: string; expires_at: string | null }>('/engineer/trajectory/share', { json: { file_id: id, share_settings: { allow_download: allowDownload }, expires_in: expiresIn } }),
  shares: (id: string) => api.get<{ shares: TrajectoryShare[] }>(`${file(id)}/shares`),
  revoke: (token: string) => api.delete<{ revoked: boolean }>(`/engineer/trajectory/share/${encodeURIComponent(token)}`),
  shared: (token: string) => api.get<SharedTrajectory>(`/engineer/trajectory/shared/${encodeURIComponent(token)}`),
};

/** Downloads go through the authenticated client; the file keeps the name the server gives it. */
export async function downloadTrajectory(path: string, fallbackName: string): Promise<void> {
  const response = await rawRequest(path, { method: 'GET' });
  const name = /filename\*=UTF-8''([^;]+)/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  downloadBlob(await response.blob(), name ? decodeURIComponent(name) : fallbackName);
}

export const downloadPath = {
  own: (id: string) => `${file(id)}/download`,
  shared: (token: string) => `/engineer/trajectory/shared/${encodeURIComponent(token)}/download`,
};
