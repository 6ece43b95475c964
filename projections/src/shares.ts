import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { ShareEvent } from '@scriptorium/domain/share/share';
import type { Projection } from './projection.ts';

/** Public links to conversations; whether one still opens is decided at read time from expires_at. */
export interface ShareDoc extends Doc {
  /** A whole conversation, or one generated file of it; absent on shares made before files could be shared. */
  kind?: 'conversation' | 'artifact';
  /** A conversation link that shows the owner's private notes and cognitions too. */
  include_private?: boolean;
  message_id?: string;
  filename?: string;
  session_id: string;
  owner_id: string;
  title: string;
  description: string;
  expires_at: string | null;
  revoked: boolean;
  created_at: string;
}

export const SHARES = 'shares';

export const sharesProjection: Projection = {
  name: 'shares',
  collections: [SHARES],
  handles: ['ConversationShared', 'ArtifactShared', 'ShareRevoked'] satisfies ShareEvent['type'][],
  async setup(store) {
    await store.collection(SHARES).ensureIndex({ fields: { session_id: 1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const shares = tx.collection<ShareDoc>(SHARES);
    const event = { type: recorded.type, data: recorded.data } as ShareEvent;
    switch (event.type) {
      case 'ConversationShared': {
        const { shareId, sessionId, ownerId, title, description, expiresAt, sharedAt, includePrivate } = event.data;
        await shares.put({
          _id: shareId,
          kind: 'conversation',
          session_id: sessionId,
          owner_id: ownerId,
          title,
          description,
          expires_at: expiresAt,
          revoked: false,
          created_at: sharedAt,
          include_private: includePrivate ?? false,
        });
        return;
      }
      case 'ArtifactShared': {
        const { shareId, sessionId, ownerId, messageId, filename, title, expiresAt, sharedAt } = event.data;
        await shares.put({ _id: shareId, kind: 'artifact', message_id: messageId, filename, session_id: sessionId, owner_id: ownerId, title, description: '', expires_at: expiresAt, revoked: false, created_at: sharedAt });
        return;
      }
      case 'ShareRevoked':
        await shares.update(event.data.shareId, { $set: { revoked: true } });
        return;
      default:
        assertNever(event);
    }
  },
};
