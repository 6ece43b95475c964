import { Node } from 'prosemirror-model';
import { Step } from 'prosemirror-transform';
import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import type { CollabAccess, CollabRole } from '../protocol/collab.ts';
import { collabSchema, emptyCollabDoc } from '../protocol/collabSchema.ts';

/**
 * One shared document (`collabdoc-<docId>`), edited live by its members through prosemirror-collab
 * with this stream as the central authority: each accepted batch of steps is one event, so the log is
 * the document's history and any version can be rebuilt from it. Invitations (by link, with edit or
 * read rights) and the members who accepted them live here too, since they decide who may submit.
 */

export const COLLAB_PREFIX = 'collabdoc-';
export const collabStream = (docId: string): string => `${COLLAB_PREFIX}${docId}`;

/** A research report's canvas being co-edited: its session and the canvas version the document started from. */
export interface ReportSource {
  sessionId: string;
  version: number;
}
/** `report`: set when the document started as a report's canvas (its content then comes as the snapshot at version 0). */
export type CollabDocCreated = DomainEvent<'CollabDocCreated', { docId: string; ownerId: string; title: string; report?: ReportSource; at: string }>;
/** Steps (ProseMirror `Step.toJSON()`) taking the document from `version` to `version + steps.length`. */
export type CollabStepsAccepted = DomainEvent<'CollabStepsAccepted', { docId: string; userId: string; clientId: string; version: number; steps: unknown[]; at: string }>;
/** The whole document at `version` (`Node.toJSON()`), recorded every `COLLAB_SNAPSHOT_EVERY` steps. */
export type CollabDocSnapshotted = DomainEvent<'CollabDocSnapshotted', { docId: string; version: number; doc: unknown; at: string }>;
/** Only the SHA-256 of the link's secret is recorded. */
export type CollabInviteCreated = DomainEvent<'CollabInviteCreated', { docId: string; inviteId: string; tokenHash: string; role: CollabRole; createdBy: string; at: string }>;
export type CollabMemberJoined = DomainEvent<'CollabMemberJoined', { docId: string; userId: string; role: CollabRole; inviteId: string; at: string }>;
export type CollabDocRenamed = DomainEvent<'CollabDocRenamed', { docId: string; title: string; by: string; at: string }>;
/** The link can no longer be joined; who joined through it stays a member. */
export type CollabInviteRevoked = DomainEvent<'CollabInviteRevoked', { docId: string; inviteId: string; by: string; at: string }>;
/** The owner took a member's access away. */
export type CollabMemberRemoved = DomainEvent<'CollabMemberRemoved', { docId: string; userId: string; by: string; at: string }>;
/** A member gave up their own access. */
export type CollabMemberLeft = DomainEvent<'CollabMemberLeft', { docId: string; userId: string; at: string }>;
/** The owner changed what a member may do, without a link. */
export type CollabMemberRoleChanged = DomainEvent<'CollabMemberRoleChanged', { docId: string; userId: string; role: CollabRole; by: string; at: string }>;

export type CollabDocEvent =
  | CollabDocCreated
  | CollabStepsAccepted
  | CollabDocSnapshotted
  | CollabInviteCreated
  | CollabMemberJoined
  | CollabDocRenamed
  | CollabInviteRevoked
  | CollabMemberRemoved
  | CollabMemberLeft
  | CollabMemberRoleChanged;

export const COLLAB_EVENT_TYPES = [
  'CollabDocCreated',
  'CollabStepsAccepted',
  'CollabDocSnapshotted',
  'CollabInviteCreated',
  'CollabMemberJoined',
  'CollabDocRenamed',
  'CollabInviteRevoked',
  'CollabMemberRemoved',
  'CollabMemberLeft',
  'CollabMemberRoleChanged',
] as const satisfies readonly CollabDocEvent['type'][];

export type CollabDoc =
  | { status: 'none' }
  | {
      status: 'open';
      ownerId: string;
      title: string;
      /** Steps accepted so far: the version prosemirror-collab clients count in. */
      version: number;
      doc: Node;
      members: Readonly<Record<string, CollabRole>>;
      /**
       * By token hash; a revoked link stays, so joining it is told it was revoked. `order` counts the
       * links in the order they were made.
       */
      invites: Readonly<Record<string, { inviteId: string; role: CollabRole; revoked: boolean; order: number }>>;
      /**
       * Members the owner removed, with how many links existed then: they come back only through a
       * link made after their removal, since the owner who removed them did not mean the old ones for them.
       */
      removed: Readonly<Record<string, number>>;
    };

export const initialState = (): CollabDoc => ({ status: 'none' });

/** Applies recorded steps; they were checked before they were recorded, so a failure here is a corrupt log. */
export function applySteps(doc: Node, steps: readonly unknown[]): Node {
  let current = doc;
  for (const json of steps) {
    const result = Step.fromJSON(collabSchema, json).apply(current);
    if (!result.doc) throw new Error(`a recorded step does not apply: ${result.failed}`);
    current = result.doc;
  }
  return current;
}

export function evolve(state: CollabDoc, event: CollabDocEvent): CollabDoc {
  if (event.type === 'CollabDocCreated') {
    return { status: 'open', ownerId: event.data.ownerId, title: event.data.title, version: 0, doc: emptyCollabDoc(), members: {}, invites: {}, removed: {} };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'CollabStepsAccepted':
      return { ...state, doc: applySteps(state.doc, event.data.steps), version: event.data.version + event.data.steps.length };
    // Equal to the document the steps led to, except at version 0 of a document that started with content.
    case 'CollabDocSnapshotted':
      return { ...state, doc: Node.fromJSON(collabSchema, event.data.doc) };
    case 'CollabInviteCreated': {
      const invite = { inviteId: event.data.inviteId, role: event.data.role, revoked: false, order: Object.keys(state.invites).length };
      return { ...state, invites: { ...state.invites, [event.data.tokenHash]: invite } };
    }
    case 'CollabMemberJoined': {
      const { [event.data.userId]: _welcomeBack, ...removed } = state.removed;
      return { ...state, members: { ...state.members, [event.data.userId]: event.data.role }, removed };
    }
    case 'CollabMemberRoleChanged':
      return { ...state, members: { ...state.members, [event.data.userId]: event.data.role } };
    case 'CollabDocRenamed':
      return { ...state, title: event.data.title };
    case 'CollabInviteRevoked': {
      const { inviteId } = event.data;
      return { ...state, invites: Object.fromEntries(Object.entries(state.invites).map(([hash, invite]) => [hash, invite.inviteId === inviteId ? { ...invite, revoked: true } : invite])) };
    }
    case 'CollabMemberRemoved': {
      const { [event.data.userId]: _gone, ...members } = state.members;
      return { ...state, members, removed: { ...state.removed, [event.data.userId]: Object.keys(state.invites).length } };
    }
    case 'CollabMemberLeft': {
      const { [event.data.userId]: _gone, ...members } = state.members;
      return { ...state, members };
    }
    default:
      return assertNever(event);
  }
}

/** What `userId` may do with the document; null for someone who is not a member (they see nothing). */
export function accessOf(state: CollabDoc, userId: string): CollabAccess | null {
  if (state.status === 'none') return null;
  if (state.ownerId === userId) return 'owner';
  return state.members[userId] ?? null;
}
