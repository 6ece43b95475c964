import { errorText } from '../protocol/errors.ts';
import { refuse } from '../refuse.ts';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolve, initialState, type Trajectory, type TrajectoryEvent, type TrajectoryUpload } from './trajectory.ts';

export const TRAJECTORY_NOT_FOUND = errorText('trajectories.not_found');

export type UploadTrajectory = Command<'UploadTrajectory', TrajectoryUpload>;
export type SetTrajectoryFavorite = Command<'SetTrajectoryFavorite', { fileId: string; actorId: string; favorite: boolean }>;
export type DeleteTrajectory = Command<'DeleteTrajectory', { fileId: string; actorId: string }>;
export type ShareTrajectory = Command<'ShareTrajectory', { fileId: string; actorId: string; token: string; allowDownload: boolean; expiresInSeconds: number | null }>;
export type RevokeTrajectoryShare = Command<'RevokeTrajectoryShare', { fileId: string; actorId: string; token: string }>;
export type TrajectoryCommand = UploadTrajectory | SetTrajectoryFavorite | DeleteTrajectory | ShareTrajectory | RevokeTrajectoryShare;

function owned(state: Trajectory, actorId: string): Extract<Trajectory, { status: 'active' }> {
  if (state.status !== 'active' || state.ownerId !== actorId) throw refuse('not_found', 'trajectories.not_found');
  return state;
}

/** A deleted session uploaded again starts over as a new file under the same id. */
export const uploadTrajectory = (command: UploadTrajectory, state: Trajectory): TrajectoryEvent[] => {
  if (state.status !== 'none' && state.ownerId !== command.data.ownerId) throw refuse('not_found', 'trajectories.not_found');
  if (state.status === 'active' && state.blobKey === command.data.blobKey) return [];
  const revision = state.status === 'active' ? state.revision + 1 : 1;
  return [{ type: 'TrajectoryUploaded', data: { ...command.data, revision, at: command.metadata.now.toISOString() } }];
};

export const setTrajectoryFavorite = (command: SetTrajectoryFavorite, state: Trajectory): TrajectoryEvent[] => {
  const { fileId, actorId, favorite } = command.data;
  if (owned(state, actorId).favorite === favorite) return [];
  return [{ type: 'TrajectoryFavoriteSet', data: { fileId, ownerId: actorId, favorite, at: command.metadata.now.toISOString() } }];
};

export const deleteTrajectory = (command: DeleteTrajectory, state: Trajectory): TrajectoryEvent[] => {
  const { fileId, actorId } = command.data;
  const current = owned(state, actorId);
  const at = command.metadata.now.toISOString();
  return [
    ...current.shares.map((token): TrajectoryEvent => ({ type: 'TrajectoryShareRevoked', data: { fileId, ownerId: actorId, token, at } })),
    { type: 'TrajectoryDeleted', data: { fileId, ownerId: actorId, blobKey: current.blobKey, at } },
  ];
};

export const shareTrajectory = (command: ShareTrajectory, state: Trajectory): TrajectoryEvent[] => {
  const { fileId, actorId, token, allowDownload, expiresInSeconds } = command.data;
  const current = owned(state, actorId);
  if (current.shares.includes(token)) return [];
  const now = command.metadata.now;
  const expiresAt = expiresInSeconds === null ? null : new Date(now.getTime() + expiresInSeconds * 1000).toISOString();
  return [{ type: 'TrajectoryShared', data: { fileId, ownerId: actorId, token, allowDownload, expiresAt, at: now.toISOString() } }];
};

export const revokeTrajectoryShare = (command: RevokeTrajectoryShare, state: Trajectory): TrajectoryEvent[] => {
  const { fileId, actorId, token } = command.data;
  if (!owned(state, actorId).shares.includes(token)) throw refuse('not_found', 'share.gone');
  return [{ type: 'TrajectoryShareRevoked', data: { fileId, ownerId: actorId, token, at: command.metadata.now.toISOString() } }];
};

export function decide(command: TrajectoryCommand, state: Trajectory): TrajectoryEvent[] {
  switch (command.type) {
    case 'UploadTrajectory':
      return uploadTrajectory(command, state);
    case 'SetTrajectoryFavorite':
      return setTrajectoryFavorite(command, state);
    case 'DeleteTrajectory':
      return deleteTrajectory(command, state);
    case 'ShareTrajectory':
      return shareTrajectory(command, state);
    case 'RevokeTrajectoryShare':
      return revokeTrajectoryShare(command, state);
    default:
      return assertNever(command);
  }
}

export const trajectoryDecider: Decider<Trajectory, TrajectoryCommand, TrajectoryEvent> = { initialState, evolve, decide };
