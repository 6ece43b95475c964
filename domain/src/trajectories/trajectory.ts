import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import type { TrajectoryEventType } from '../protocol/trajectories.ts';

/**
 * One recorded session of the command-line tool (stream `trajectory-<fileId>`). The id comes from
 * the owner and the CLI's session id, so uploading the same session again replaces its events. The
 * events themselves are a JSONL object in the BlobStore; the stream records what the lists show.
 */

export { TRAJECTORY_EVENT_TYPES as EVENT_TYPES, type TrajectoryEventType } from '../protocol/trajectories.ts';

export interface TrajectoryUpload {
  fileId: string;
  ownerId: string;
  sessionId: string;
  projectName: string;
  filename: string;
  title: string;
  description: string;
  blobKey: string;
  size: number;
  eventCount: number;
  preview: Array<{ event_type: TrajectoryEventType; query: string }>;
  /** No session_end yet: the CLI is still recording it. */
  active: boolean;
}

export type TrajectoryUploaded = DomainEvent<'TrajectoryUploaded', TrajectoryUpload & { revision: number; at: string }>;
export type TrajectoryFavoriteSet = DomainEvent<'TrajectoryFavoriteSet', { fileId: string; ownerId: string; favorite: boolean; at: string }>;
export type TrajectoryDeleted = DomainEvent<'TrajectoryDeleted', { fileId: string; ownerId: string; blobKey: string; at: string }>;
export type TrajectoryShared = DomainEvent<'TrajectoryShared', { fileId: string; ownerId: string; token: string; allowDownload: boolean; expiresAt: string | null; at: string }>;
export type TrajectoryShareRevoked = DomainEvent<'TrajectoryShareRevoked', { fileId: string; ownerId: string; token: string; at: string }>;
export type TrajectoryEvent = TrajectoryUploaded | TrajectoryFavoriteSet | TrajectoryDeleted | TrajectoryShared | TrajectoryShareRevoked;

export type Trajectory =
  | { status: 'none' }
  | { status: 'active'; ownerId: string; revision: number; blobKey: string; favorite: boolean; shares: string[] }
  | { status: 'deleted'; ownerId: string };

export const initialState = (): Trajectory => ({ status: 'none' });

export const trajectoryStream = (fileId: string): string => `trajectory-${fileId}`;

export function evolve(state: Trajectory, event: TrajectoryEvent): Trajectory {
  switch (event.type) {
    case 'TrajectoryUploaded': {
      const { ownerId, revision, blobKey } = event.data;
      return state.status === 'active' ? { ...state, revision, blobKey } : { status: 'active', ownerId, revision, blobKey, favorite: false, shares: [] };
    }
    case 'TrajectoryFavoriteSet':
      return state.status === 'active' ? { ...state, favorite: event.data.favorite } : state;
    case 'TrajectoryDeleted':
      return { status: 'deleted', ownerId: event.data.ownerId };
    case 'TrajectoryShared':
      return state.status === 'active' ? { ...state, shares: [...state.shares, event.data.token] } : state;
    case 'TrajectoryShareRevoked':
      return state.status === 'active' ? { ...state, shares: state.shares.filter((token) => token !== event.data.token) } : state;
    default:
      return assertNever(event);
  }
}
