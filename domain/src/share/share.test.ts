import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { isOpen, shareDecider } from './decide.ts';
import type { ShareEvent } from './share.ts';

const spec = deciderSpec(shareDecider);
const shared: ShareEvent = {
  type: 'ConversationShared',
  data: { shareId: 'sh1', sessionId: 's1', ownerId: 'u1', title: '报告', description: '', expiresAt: '2026-03-08T00:00:00.000Z', sharedAt: '2026-03-01T00:00:00.000Z' },
};

test('sharing records the expiry computed from expires_days', (t) => {
  spec([])
    .when({ type: 'ShareConversation', data: { shareId: 'sh1', sessionId: 's1', ownerId: 'u1', title: ' 报告 ', description: '', expiresDays: 7 }, metadata: at('2026-03-01T00:00:00Z') })
    .then(t, [shared]);
});

test('no expiry by default (null)', (t) => {
  spec([])
    .when({ type: 'ShareConversation', data: { shareId: 'sh1', sessionId: 's1', ownerId: 'u1', title: 't', description: 'd', expiresDays: null }, metadata: at('2026-03-01T00:00:00Z') })
    .then(t, [{ type: 'ConversationShared', data: { shareId: 'sh1', sessionId: 's1', ownerId: 'u1', title: 't', description: 'd', expiresAt: null, sharedAt: '2026-03-01T00:00:00.000Z' } }]);
});

test('an out-of-range expiry is refused', (t) => {
  for (const expiresDays of [0, -1, 1.5, 100000]) {
    spec([])
      .when({ type: 'ShareConversation', data: { shareId: 'sh1', sessionId: 's1', ownerId: 'u1', title: 't', description: '', expiresDays }, metadata: at('2026-03-01T00:00:00Z') })
      .thenThrows(t, 'invalid');
  }
});

test('only the owner revokes, once', (t) => {
  const revoked: ShareEvent = { type: 'ShareRevoked', data: { shareId: 'sh1', sessionId: 's1', revokedAt: '2026-03-02T00:00:00.000Z' } };
  spec([shared]).when({ type: 'RevokeShare', data: { actorId: 'u1' }, metadata: at('2026-03-02T00:00:00Z') }).then(t, [revoked]);
  spec([shared, revoked]).when({ type: 'RevokeShare', data: { actorId: 'u1' }, metadata: at('2026-03-03T00:00:00Z') }).then(t, []);
  spec([shared]).when({ type: 'RevokeShare', data: { actorId: 'u2' }, metadata: at('2026-03-02T00:00:00Z') }).thenThrows(t, 'not_found');
});

test('a share is open until it expires or is revoked', (t) => {
  const share = { revoked: false, expiresAt: '2026-03-08T00:00:00.000Z' };
  t.true(isOpen(share, new Date('2026-03-07T23:59:59Z')));
  t.false(isOpen(share, new Date('2026-03-08T00:00:00Z')));
  t.false(isOpen({ ...share, revoked: true }, new Date('2026-03-02T00:00:00Z')));
  t.true(isOpen({ revoked: false, expiresAt: null }, new Date('2100-01-01T00:00:00Z')));
});

test('a generated file is shared on its own, with its expiry, and revoked like any share', (t) => {
  const artifact: ShareEvent = {
    type: 'ArtifactShared',
    data: { shareId: 'sh2', sessionId: 's1', ownerId: 'u1', messageId: 'm1', filename: 'page.html', title: 'page.html', expiresAt: '2026-03-08T00:00:00.000Z', sharedAt: '2026-03-01T00:00:00.000Z' },
  };
  spec([])
    .when({ type: 'ShareArtifact', data: { shareId: 'sh2', sessionId: 's1', ownerId: 'u1', messageId: 'm1', filename: 'page.html', expiresDays: 7 }, metadata: at('2026-03-01T00:00:00Z') })
    .then(t, [artifact]);
  spec([artifact])
    .when({ type: 'RevokeShare', data: { actorId: 'u1' }, metadata: at('2026-03-02T00:00:00Z') })
    .then(t, [{ type: 'ShareRevoked', data: { shareId: 'sh2', sessionId: 's1', revokedAt: '2026-03-02T00:00:00.000Z' } }]);
  spec([artifact]).when({ type: 'ShareArtifact', data: { shareId: 'sh2', sessionId: 's1', ownerId: 'u1', messageId: 'm1', filename: 'page.html', expiresDays: 0 }, metadata: at('2026-03-01T00:00:00Z') }).thenThrows(t, 'conflict');
});
