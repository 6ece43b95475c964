import test from 'ava';
import type { ShareEvent } from '@scriptorium/domain/share/share';
import { OWNER, SESSION, T1, T2, T3 } from './fixtures.ts';
import { SHARES, sharesProjection } from './shares.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<ShareEvent>(sharesProjection);
const conversation: ShareEvent = {
  type: 'ConversationShared',
  data: { shareId: 'sh1', sessionId: SESSION, ownerId: OWNER, title: '宋代书院', description: '一次研究', expiresAt: T3, sharedAt: T1 },
};
const artifact: ShareEvent = {
  type: 'ArtifactShared',
  data: { shareId: 'sh2', sessionId: SESSION, ownerId: OWNER, messageId: 'm2', filename: 'report.pdf', title: '报告', expiresAt: null, sharedAt: T2 },
};

test('a shared conversation and a shared file are listed by session', async (t) => {
  await spec.given(conversation, artifact).then(
    t,
    SHARES,
    [
      { _id: 'sh1', kind: 'conversation', session_id: SESSION, owner_id: OWNER, title: '宋代书院', description: '一次研究', expires_at: T3, revoked: false, created_at: T1 },
      { _id: 'sh2', kind: 'artifact', message_id: 'm2', filename: 'report.pdf', title: '报告', description: '', expires_at: null, revoked: false, created_at: T2 },
    ],
    { filter: { session_id: SESSION } },
  );
});

test('a revoked share stays, marked revoked', async (t) => {
  await spec
    .given(conversation, artifact, { type: 'ShareRevoked', data: { shareId: 'sh1', sessionId: SESSION, revokedAt: T2 } })
    .then(t, SHARES, [{ _id: 'sh1', revoked: true }, { _id: 'sh2', revoked: false }]);
});
