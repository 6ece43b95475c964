import test from 'ava';
import type { TrajectoryEvent } from '@scriptorium/domain/trajectories/trajectory';
import { OWNER, T1, T2, T3, uploaded } from './fixtures.ts';
import { projectionSpec } from './testing.ts';
import { TRAJECTORIES, TRAJECTORY_SHARES, trajectoriesProjection } from './trajectories.ts';

const spec = projectionSpec<TrajectoryEvent>(trajectoriesProjection);
const favorite: TrajectoryEvent = { type: 'TrajectoryFavoriteSet', data: { fileId: 'f1', ownerId: OWNER, favorite: true, at: T2 } };
const shared: TrajectoryEvent = { type: 'TrajectoryShared', data: { fileId: 'f1', ownerId: OWNER, token: 'tok-1', allowDownload: true, expiresAt: null, at: T2 } };

test('an uploaded session is listed with what the list shows', async (t) => {
  await spec.given(uploaded('f1', { active: true })).thenDoc(t, TRAJECTORIES, 'f1', {
    owner_id: OWNER,
    session_id: 'cli-f1',
    project_name: 'scriptorium',
    filename: 'f1.jsonl',
    title: '修复登录',
    blob_key: 'trajectories/u1/f1.jsonl',
    size: 2048,
    event_count: 10,
    preview: [{ event_type: 'user_query', query: '修复登录' }],
    active: true,
    favorite: false,
    created_at: T1,
    updated_at: T1,
  });
});

test('uploading again replaces the recording but keeps the favorite mark and when it was first uploaded', async (t) => {
  await spec
    .given(uploaded('f1', { active: true }), favorite, uploaded('f1', { eventCount: 30, active: false, revision: 2, at: T3 }))
    .thenDoc(t, TRAJECTORIES, 'f1', { event_count: 30, active: false, favorite: true, created_at: T1, updated_at: T3 });
});

test("the owner's sessions are listed most recently updated first", async (t) => {
  await spec
    .given(uploaded('f1', { at: T1 }), uploaded('f2', { at: T3 }), uploaded('f3', { at: T2 }))
    .then(t, TRAJECTORIES, [{ _id: 'f2' }, { _id: 'f3' }, { _id: 'f1' }], { filter: { owner_id: OWNER }, sort: { updated_at: -1 } });
});

test('a share is looked up by its token until revoked', async (t) => {
  const sharing = spec.given(uploaded('f1'), shared);
  await sharing.then(t, TRAJECTORY_SHARES, [{ _id: 'tok-1', file_id: 'f1', owner_id: OWNER, allow_download: true, expires_at: null, created_at: T2 }]);
  await sharing.when({ type: 'TrajectoryShareRevoked', data: { fileId: 'f1', ownerId: OWNER, token: 'tok-1', at: T3 } }).then(t, TRAJECTORY_SHARES, []);
});

test('a deleted session leaves the list', async (t) => {
  await spec.given(uploaded('f1'), uploaded('f2'), { type: 'TrajectoryDeleted', data: { fileId: 'f1', ownerId: OWNER, blobKey: 'trajectories/u1/f1.jsonl', at: T2 } }).then(t, TRAJECTORIES, [{ _id: 'f2' }]);
});
