import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

export type ConversationShared = DomainEvent<
  'ConversationShared',
  {
    shareId: string;
    sessionId: string;
    ownerId: string;
    title: string;
    description: string;
    expiresAt: string | null;
    sharedAt: string;
    /** The owner chose to show their private notes and cognitions too; absent (older links) is no. */
    includePrivate?: boolean;
  }
>;
/** One generated file (an artifact of a chat reply) on its own page. */
export type ArtifactShared = DomainEvent<
  'ArtifactShared',
  { shareId: string; sessionId: string; ownerId: string; messageId: string; filename: string; title: string; expiresAt: string | null; sharedAt: string }
>;
export type ShareRevoked = DomainEvent<'ShareRevoked', { shareId: string; sessionId: string; revokedAt: string }>;
export type ShareEvent = ConversationShared | ArtifactShared | ShareRevoked;

interface ShareDetails {
  shareId: string;
  sessionId: string;
  ownerId: string;
  title: string;
  description: string;
  expiresAt: string | null;
}

export type Share = { status: 'none' } | ({ status: 'active' } & ShareDetails) | ({ status: 'revoked' } & ShareDetails);

export const initialState = (): Share => ({ status: 'none' });

export function evolve(state: Share, event: ShareEvent): Share {
  switch (event.type) {
    case 'ConversationShared': {
      const { shareId, sessionId, ownerId, title, description, expiresAt } = event.data;
      return { status: 'active', shareId, sessionId, ownerId, title, description, expiresAt };
    }
    case 'ArtifactShared': {
      const { shareId, sessionId, ownerId, title, expiresAt } = event.data;
      return { status: 'active', shareId, sessionId, ownerId, title, description: '', expiresAt };
    }
    case 'ShareRevoked':
      return state.status === 'active' ? { ...state, status: 'revoked' } : state;
    default:
      return assertNever(event);
  }
}

export const shareStream = (shareId: string): string => `share-${shareId}`;
