import { refuse } from '../refuse.ts';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolve, initialState, type Share, type ShareEvent } from './share.ts';
import { MAX_EXPIRES_DAYS } from '../protocol/http/share.ts';

export type ShareConversation = Command<
  'ShareConversation',
  { shareId: string; sessionId: string; ownerId: string; title: string; description: string; expiresDays: number | null; includePrivate?: boolean }
>;
export type ShareArtifact = Command<'ShareArtifact', { shareId: string; sessionId: string; ownerId: string; messageId: string; filename: string; expiresDays: number | null }>;
export type RevokeShare = Command<'RevokeShare', { actorId: string }>;
export type ShareCommand = ShareConversation | ShareArtifact | RevokeShare;

function expiryOf(expiresDays: number | null, now: Date): string | null {
  if (expiresDays !== null && (!Number.isInteger(expiresDays) || expiresDays < 1 || expiresDays > MAX_EXPIRES_DAYS)) {
    throw refuse('invalid', 'share.expiry_range', { max: MAX_EXPIRES_DAYS }, 'expires_days');
  }
  return expiresDays === null ? null : new Date(now.getTime() + expiresDays * 86_400_000).toISOString();
}

export const shareConversation = (command: ShareConversation, state: Share): ShareEvent[] => {
  if (state.status !== 'none') throw refuse('conflict', 'share.exists');
  const { shareId, sessionId, ownerId, title, description, expiresDays, includePrivate } = command.data;
  const now = command.metadata.now;
  const expiresAt = expiryOf(expiresDays, now);
  return [
    {
      type: 'ConversationShared',
      data: { shareId, sessionId, ownerId, title: title.trim(), description: description.trim(), expiresAt, sharedAt: now.toISOString(), ...(includePrivate && { includePrivate }) },
    },
  ];
};

export const shareArtifact = (command: ShareArtifact, state: Share): ShareEvent[] => {
  if (state.status !== 'none') throw refuse('conflict', 'share.exists');
  const { expiresDays, ...data } = command.data;
  const now = command.metadata.now;
  return [{ type: 'ArtifactShared', data: { ...data, title: data.filename, expiresAt: expiryOf(expiresDays, now), sharedAt: now.toISOString() } }];
};

export const revokeShare = (command: RevokeShare, state: Share): ShareEvent[] => {
  if (state.status === 'none' || state.ownerId !== command.data.actorId) throw refuse('not_found', 'share.gone');
  if (state.status === 'revoked') return [];
  return [{ type: 'ShareRevoked', data: { shareId: state.shareId, sessionId: state.sessionId, revokedAt: command.metadata.now.toISOString() } }];
};

export function decide(command: ShareCommand, state: Share): ShareEvent[] {
  switch (command.type) {
    case 'ShareConversation':
      return shareConversation(command, state);
    case 'ShareArtifact':
      return shareArtifact(command, state);
    case 'RevokeShare':
      return revokeShare(command, state);
    default:
      return assertNever(command);
  }
}

export const shareDecider: Decider<Share, ShareCommand, ShareEvent> = { initialState, evolve, decide };

/** Whether a share can be opened now: not revoked and not past its expiry. */
export const isOpen = (share: { revoked: boolean; expiresAt: string | null }, now: Date): boolean =>
  !share.revoked && (share.expiresAt === null || new Date(share.expiresAt) > now);
