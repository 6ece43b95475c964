import { z } from 'zod';
import { TRAJECTORY_EVENT_TYPES } from '../trajectories.ts';
import { MAX_EXPIRES_DAYS } from './share.ts';
import { queryNumber } from './query.ts';

/**
 * The CLI trajectory routes' requests and replies (`/backend/engineer/trajectory…`, `/backend/engineer/leaderboard`);
 * see `oauth.ts` for how they are shared. A request schema is the one the route parses with; the client sends its `z.input`.
 */

export const trajectoryEvent = z.object({
  event_type: z.enum(TRAJECTORY_EVENT_TYPES),
  timestamp: z.string(),
  query: z.string().optional(),
  content: z.string().optional(),
  command: z.string().optional(),
  exit_code: z.number().int().optional(),
  model: z.string().optional(),
  tokens: z.number().int().optional(),
});

const fileFields = {
  file_id: z.string(),
  id: z.string(),
  filename: z.string(),
  title: z.string(),
  description: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  trajectory_count: z.number().int(),
  preview_data: z.array(z.object({ event_type: z.enum(TRAJECTORY_EVENT_TYPES), query: z.string() })),
  metadata: z.object({ session_id: z.string(), project_name: z.string() }),
  active: z.boolean(),
  size: z.number().int(),
};

export const trajectoryFile = z.object({ ...fileFields, favorite: z.boolean() });
export const trajectoryFiles = z.object({ files: z.array(trajectoryFile), total: z.number().int(), active_sessions: z.number().int() });
export const trajectoryWithEvents = trajectoryFile.extend({ events: z.array(trajectoryEvent) });
export const sharedTrajectory = z.object({ ...fileFields, events: z.array(trajectoryEvent), share_settings: z.object({ allow_download: z.boolean() }), expires_at: z.string().nullable() });
export const trajectoryFavorite = z.object({ file_id: z.string(), favorite: z.boolean() });

/** A live link to one of the user's trajectories (expired and revoked ones are not listed). */
export const trajectoryShare = z.object({ token: z.string(), share_url: z.string(), allow_download: z.boolean(), expires_at: z.string().nullable(), created_at: z.string() });
export const trajectoryShares = z.object({ shares: z.array(trajectoryShare) });
export const trajectoryShared = z.object({ token: z.string(), share_url: z.string(), expires_at: z.string().nullable() });

export const cliLeaderboard = z.object({
  leaders: z.array(z.object({ rank: z.number().int(), username: z.string(), sessions: z.number().int(), events: z.number().int(), last_active: z.string() })),
  total_users: z.number().int(),
});

export type TrajectoryFile = z.infer<typeof trajectoryFile>;
export type TrajectoryFiles = z.infer<typeof trajectoryFiles>;
export type TrajectoryWithEvents = z.infer<typeof trajectoryWithEvents>;
export type SharedTrajectory = z.infer<typeof sharedTrajectory>;
export type TrajectoryFavorite = z.infer<typeof trajectoryFavorite>;
export type TrajectoryShare = z.infer<typeof trajectoryShare>;
export type TrajectoryShares = z.infer<typeof trajectoryShares>;
export type TrajectoryShared = z.infer<typeof trajectoryShared>;
export type CliLeaderboard = z.infer<typeof cliLeaderboard>;

/** Requests. */

export const trajectoryFavoriteBody = z.object({ file_id: z.uuid().optional(), favorite: z.boolean({ error: 'trajectories.favorite_required' }) });
export const trajectoryShareBody = z.object({
  file_id: z.uuid('trajectories.id_invalid'),
  share_settings: z.object({ allow_download: z.boolean().default(true) }).default({ allow_download: true }),
  expires_in: z.number().int().min(60, 'trajectories.expiry_too_short').max(MAX_EXPIRES_DAYS * 86_400, 'trajectories.expiry_too_long').nullable().default(null),
});

export type TrajectoryFavoriteBody = z.input<typeof trajectoryFavoriteBody>;
export type TrajectoryShareBody = z.input<typeof trajectoryShareBody>;

/** A page of the user's trajectory files, and of the leaderboard; the client passes their `z.input`. */
export const trajectoryListQuery = z.object({ limit: queryNumber().int().min(1).max(10_000).default(50), offset: queryNumber().int().min(0).default(0) });
export const leaderboardQuery = z.object({ limit: queryNumber().int().min(1).max(100).default(20) });
export type TrajectoryListQuery = z.input<typeof trajectoryListQuery>;
export type LeaderboardQuery = z.input<typeof leaderboardQuery>;
