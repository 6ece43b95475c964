import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import type { TrajectoryUploaded } from '@scriptorium/domain/trajectories/trajectory';
import type { Projection } from './projection.ts';

/** One user's CLI usage: sessions recorded and events in them. Deleting a trajectory does not undo usage. */
export interface CliUsageDoc extends Doc {
  sessions: number;
  events: number;
  last_active: string;
}

/** The event count each uploaded session had, so a re-upload adds only what is new. */
export interface CliSessionDoc extends Doc {
  user_id: string;
  events: number;
}

export const CLI_USAGE = 'cli_usage';
export const CLI_SESSIONS = 'cli_usage_sessions';

export const cliLeaderboardProjection: Projection = {
  name: 'cli_leaderboard',
  collections: [CLI_USAGE, CLI_SESSIONS],
  handles: ['TrajectoryUploaded'] satisfies TrajectoryUploaded['type'][],
  async setup(store) {
    await store.collection(CLI_USAGE).ensureIndex({ fields: { sessions: -1, events: -1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const { fileId, ownerId, eventCount, at } = recorded.data as TrajectoryUploaded['data'];
    const sessions = tx.collection<CliSessionDoc>(CLI_SESSIONS);
    const known = await sessions.get(fileId);
    await sessions.put({ _id: fileId, user_id: ownerId, events: Math.max(eventCount, known?.events ?? 0) });
    const added = Math.max(0, eventCount - (known?.events ?? 0));
    await tx.collection<CliUsageDoc>(CLI_USAGE).update(ownerId, { $inc: { sessions: known ? 0 : 1, events: added }, $set: { last_active: at } }, { upsert: true });
  },
};
