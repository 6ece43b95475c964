import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { TRAJECTORY_NOT_FOUND, trajectoryDecider } from './decide.ts';
import type { TrajectoryEvent, TrajectoryUpload } from './trajectory.ts';

const spec = deciderSpec(trajectoryDecider);
const T1 = '2026-06-01T10:00:00.000Z';
const upload = (blobKey: string, ownerId = 'u1'): TrajectoryUpload => ({
  fileId: 'f1',
  ownerId,
  sessionId: 's1',
  projectName: 'demo',
  filename: 'session.jsonl',
  title: '修复登录',
  description: '',
  blobKey,
  size: 100,
  eventCount: 4,
  preview: [{ event_type: 'user_query', query: '为什么登录失败？' }],
  active: false,
});
const uploaded = (blobKey: string, revision: number): TrajectoryEvent => ({ type: 'TrajectoryUploaded', data: { ...upload(blobKey), revision, at: T1 } });
const shared: TrajectoryEvent = { type: 'TrajectoryShared', data: { fileId: 'f1', ownerId: 'u1', token: 'tok', allowDownload: true, expiresAt: null, at: T1 } };

test('the same session uploaded again is the next revision; the same bytes again are nothing', (t) => {
  spec([]).when({ type: 'UploadTrajectory', data: upload('a'), metadata: at(T1) }).then(t, [uploaded('a', 1)]);
  spec([uploaded('a', 1)]).when({ type: 'UploadTrajectory', data: upload('b'), metadata: at(T1) }).then(t, [uploaded('b', 2)]);
  spec([uploaded('a', 1)]).when({ type: 'UploadTrajectory', data: upload('a'), metadata: at(T1) }).then(t, []);
});

test('another user cannot upload over, favourite, share or delete it', (t) => {
  spec([uploaded('a', 1)]).when({ type: 'UploadTrajectory', data: upload('x', 'u2'), metadata: at(T1) }).thenThrows(t, 'not_found', TRAJECTORY_NOT_FOUND);
  spec([uploaded('a', 1)]).when({ type: 'SetTrajectoryFavorite', data: { fileId: 'f1', actorId: 'u2', favorite: true }, metadata: at(T1) }).thenThrows(t, 'not_found');
  spec([uploaded('a', 1)]).when({ type: 'ShareTrajectory', data: { fileId: 'f1', actorId: 'u2', token: 't', allowDownload: false, expiresInSeconds: null }, metadata: at(T1) }).thenThrows(t, 'not_found');
  spec([uploaded('a', 1)]).when({ type: 'DeleteTrajectory', data: { fileId: 'f1', actorId: 'u2' }, metadata: at(T1) }).thenThrows(t, 'not_found');
});

test('a share expires after the seconds asked for; deleting revokes every share first', (t) => {
  spec([uploaded('a', 1)])
    .when({ type: 'ShareTrajectory', data: { fileId: 'f1', actorId: 'u1', token: 'tok', allowDownload: true, expiresInSeconds: 86_400 }, metadata: at(T1) })
    .then(t, [{ type: 'TrajectoryShared', data: { fileId: 'f1', ownerId: 'u1', token: 'tok', allowDownload: true, expiresAt: '2026-06-02T10:00:00.000Z', at: T1 } }]);
  spec([uploaded('a', 1), shared])
    .when({ type: 'DeleteTrajectory', data: { fileId: 'f1', actorId: 'u1' }, metadata: at(T1) })
    .then(t, [
      { type: 'TrajectoryShareRevoked', data: { fileId: 'f1', ownerId: 'u1', token: 'tok', at: T1 } },
      { type: 'TrajectoryDeleted', data: { fileId: 'f1', ownerId: 'u1', blobKey: 'a', at: T1 } },
    ]);
});

test('favouriting twice records once', (t) => {
  const favourite = { type: 'SetTrajectoryFavorite' as const, data: { fileId: 'f1', actorId: 'u1', favorite: true }, metadata: at(T1) };
  spec([uploaded('a', 1)]).when(favourite).then(t, [{ type: 'TrajectoryFavoriteSet', data: { fileId: 'f1', ownerId: 'u1', favorite: true, at: T1 } }]);
  spec([uploaded('a', 1), { type: 'TrajectoryFavoriteSet', data: { fileId: 'f1', ownerId: 'u1', favorite: true, at: T1 } }]).when(favourite).then(t, []);
});
