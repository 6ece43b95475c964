import test from 'ava';
import type { TrajectoryUploaded } from '@scriptorium/domain/trajectories/trajectory';
import { CLI_SESSIONS, CLI_USAGE, cliLeaderboardProjection } from './cliLeaderboard.ts';
import { T1, T2, T3, uploaded } from './fixtures.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<TrajectoryUploaded>(cliLeaderboardProjection);

test('each uploaded session counts once, with its events', async (t) => {
  await spec.given(uploaded('f1', { eventCount: 10 }), uploaded('f2', { eventCount: 4, at: T2 })).thenDoc(t, CLI_USAGE, 'u1', { sessions: 2, events: 14, last_active: T2 });
});

test('a session uploaded again adds only its new events, and never takes any away', async (t) => {
  const again = spec.given(uploaded('f1', { eventCount: 10 }), uploaded('f1', { eventCount: 25, revision: 2, at: T2 }), uploaded('f1', { eventCount: 3, revision: 3, at: T3 }));
  await again.thenDoc(t, CLI_USAGE, 'u1', { sessions: 1, events: 25, last_active: T3 });
  await again.thenDoc(t, CLI_SESSIONS, 'f1', { user_id: 'u1', events: 25 });
});

test('the leaderboard ranks by sessions, then events', async (t) => {
  await spec
    .given(uploaded('f1', { ownerId: 'u1', eventCount: 50 }), uploaded('f2', { ownerId: 'u2', eventCount: 5 }), uploaded('f3', { ownerId: 'u2', eventCount: 5 }), uploaded('f4', { ownerId: 'u3', eventCount: 9, at: T1 }))
    .then(t, CLI_USAGE, [{ _id: 'u2', sessions: 2 }, { _id: 'u1', sessions: 1, events: 50 }, { _id: 'u3', events: 9 }], { sort: { sessions: -1, events: -1 } });
});

test('an upload replayed after a crash is counted once', async (t) => {
  await spec.given(uploaded('f1', { eventCount: 10 })).replayed().thenDoc(t, CLI_USAGE, 'u1', { sessions: 1, events: 10 });
});
