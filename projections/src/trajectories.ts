import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { TrajectoryEvent, TrajectoryEventType } from '@scriptorium/domain/trajectories/trajectory';
import type { Projection } from './projection.ts';

export interface TrajectoryDoc extends Doc {
  owner_id: string;
  session_id: string;
  project_name: string;
  filename: string;
  title: string;
  description: string;
  blob_key: string;
  size: number;
  event_count: number;
  preview: Array<{ event_type: TrajectoryEventType; query: string }>;
  active: boolean;
  favorite: boolean;
  created_at: string;
  updated_at: string;
}

export interface TrajectoryShareDoc extends Doc {
  file_id: string;
  owner_id: string;
  allow_download: boolean;
  expires_at: string | null;
  created_at: string;
}

export const TRAJECTORIES = 'trajectories';
export const TRAJECTORY_SHARES = 'trajectory_shares';

export const trajectoriesProjection: Projection = {
  name: 'trajectories',
  collections: [TRAJECTORIES, TRAJECTORY_SHARES],
  handles: ['TrajectoryUploaded', 'TrajectoryFavoriteSet', 'TrajectoryDeleted', 'TrajectoryShared', 'TrajectoryShareRevoked'] satisfies TrajectoryEvent['type'][],
  async setup(store) {
    await store.collection(TRAJECTORIES).ensureIndex({ fields: { owner_id: 1, updated_at: -1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const files = tx.collection<TrajectoryDoc>(TRAJECTORIES);
    const shares = tx.collection<TrajectoryShareDoc>(TRAJECTORY_SHARES);
    const event = { type: recorded.type, data: recorded.data } as TrajectoryEvent;
    switch (event.type) {
      case 'TrajectoryUploaded': {
        const { fileId, ownerId, sessionId, projectName, filename, title, description, blobKey, size, eventCount, preview, active, revision, at } = event.data;
        const known = revision > 1 ? await files.get(fileId) : null;
        await files.put({
          _id: fileId,
          owner_id: ownerId,
          session_id: sessionId,
          project_name: projectName,
          filename,
          title,
          description,
          blob_key: blobKey,
          size,
          event_count: eventCount,
          preview,
          active,
          favorite: known?.favorite ?? false,
          created_at: known?.created_at ?? at,
          updated_at: at,
        });
        return;
      }
      case 'TrajectoryFavoriteSet':
        await files.update(event.data.fileId, { $set: { favorite: event.data.favorite } });
        return;
      case 'TrajectoryDeleted':
        await files.delete(event.data.fileId);
        return;
      case 'TrajectoryShared': {
        const { token, fileId, ownerId, allowDownload, expiresAt, at } = event.data;
        await shares.put({ _id: token, file_id: fileId, owner_id: ownerId, allow_download: allowDownload, expires_at: expiresAt, created_at: at });
        return;
      }
      case 'TrajectoryShareRevoked':
        await shares.delete(event.data.token);
        return;
      default:
        assertNever(event);
    }
  },
};
