import { Node } from 'prosemirror-model';
import { Step } from 'prosemirror-transform';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { COLLAB_LIMITS, COLLAB_SNAPSHOT_EVERY, type CollabRole } from '../protocol/collab.ts';
import { collabSchema } from '../protocol/collabSchema.ts';
import { refuse } from '../refuse.ts';
import { accessOf, evolve, initialState, type CollabDoc, type CollabDocEvent, type ReportSource } from './collabdoc.ts';

type Open = Extract<CollabDoc, { status: 'open' }>;

/** `initial`: the content it starts with (a report's canvas), as `Node.toJSON()`; empty when not given. */
export type CreateCollabDoc = Command<'CreateCollabDoc', { docId: string; ownerId: string; title: string; report?: ReportSource; initial?: unknown }>;
export type SubmitCollabSteps = Command<'SubmitCollabSteps', { docId: string; userId: string; clientId: string; version: number; steps: unknown[] }>;
export type CreateCollabInvite = Command<'CreateCollabInvite', { docId: string; actorId: string; inviteId: string; tokenHash: string; role: CollabRole }>;
export type JoinCollabDoc = Command<'JoinCollabDoc', { docId: string; userId: string; tokenHash: string }>;
export type RenameCollabDoc = Command<'RenameCollabDoc', { docId: string; actorId: string; title: string }>;
export type RevokeCollabInvite = Command<'RevokeCollabInvite', { docId: string; actorId: string; inviteId: string }>;
/** `userId` equal to `actorId` is a member leaving; otherwise the owner removing them. */
export type RemoveCollabMember = Command<'RemoveCollabMember', { docId: string; actorId: string; userId: string }>;
export type ChangeCollabMemberRole = Command<'ChangeCollabMemberRole', { docId: string; actorId: string; userId: string; role: CollabRole }>;
export type CollabDocCommand = CreateCollabDoc | SubmitCollabSteps | CreateCollabInvite | JoinCollabDoc | RenameCollabDoc | RevokeCollabInvite | RemoveCollabMember | ChangeCollabMemberRole;

/** Someone who is not a member is told the document does not exist, so ids cannot be probed. */
function visible(state: CollabDoc, userId: string): Open {
  if (state.status === 'none' || accessOf(state, userId) === null) throw refuse('not_found', 'collab.not_found');
  return state;
}

/** Managing the document (its title, links and members) is its owner's alone; a member is told so, a stranger sees nothing. */
function owned(state: CollabDoc, actorId: string): Open {
  const doc = visible(state, actorId);
  if (doc.ownerId !== actorId) throw refuse('forbidden', 'collab.owner_only_manage');
  return doc;
}

/** The same rules on creating and renaming: trimmed, not empty, at most `COLLAB_LIMITS.title`. */
function titleOf(raw: string): string {
  const title = raw.trim();
  if (title === '') throw refuse('invalid', 'collab.title_empty', {}, 'title');
  if (title.length > COLLAB_LIMITS.title) throw refuse('invalid', 'collab.title_too_long', {}, 'title');
  return title;
}

/** Creating the same document again (a retried request) records nothing. */
export const createCollabDoc = (command: CreateCollabDoc, state: CollabDoc): CollabDocEvent[] => {
  const { docId, ownerId } = command.data;
  if (state.status !== 'none') {
    if (state.ownerId !== ownerId) throw refuse('not_found', 'collab.not_found');
    return [];
  }
  const title = titleOf(command.data.title);
  const at = command.metadata.now.toISOString();
  const { report, initial } = command.data;
  const created: CollabDocEvent = { type: 'CollabDocCreated', data: { docId, ownerId, title, ...(report && { report }), at } };
  if (initial === undefined) return [created];
  const doc = (() => {
    try {
      const parsed = Node.fromJSON(collabSchema, initial);
      parsed.check();
      return parsed.type === collabSchema.topNodeType ? parsed : null;
    } catch {
      return null;
    }
  })();
  if (!doc) throw refuse('invalid', 'collab.doc_invalid', {}, 'doc');
  if (doc.content.size > COLLAB_LIMITS.docSize) throw refuse('invalid', 'collab.doc_too_large', { max: COLLAB_LIMITS.docSize }, 'doc');
  return [created, { type: 'CollabDocSnapshotted', data: { docId, version: 0, doc: doc.toJSON(), at } }];
};

/**
 * The central authority's one rule: a batch is accepted only on top of the current version, and only
 * if every step parses with the shared schema and applies to the current document. Anything else is
 * refused whole, so the log never holds a step a client could not apply.
 */
export const submitCollabSteps = (command: SubmitCollabSteps, state: CollabDoc): CollabDocEvent[] => {
  const { docId, userId, clientId, version, steps } = command.data;
  const doc = visible(state, userId);
  if (accessOf(doc, userId) === 'read') throw refuse('forbidden', 'collab.read_only');
  if (version < doc.version) throw refuse('conflict', 'collab.version_behind', { version: doc.version });
  if (version > doc.version) throw refuse('invalid', 'collab.version_ahead', { version: doc.version });
  if (steps.length === 0 || steps.length > COLLAB_LIMITS.batch) throw refuse('invalid', 'collab.batch_size', { max: COLLAB_LIMITS.batch });
  let current: Node = doc.doc;
  const accepted: unknown[] = [];
  for (const [index, json] of steps.entries()) {
    // Parsing, applying (a position out of range throws) and checking the result against the schema all refuse alike.
    const applied = (() => {
      try {
        const step = Step.fromJSON(collabSchema, json);
        const result = step.apply(current);
        result.doc?.check();
        return result.doc ? { step, doc: result.doc } : null;
      } catch {
        return null;
      }
    })();
    if (!applied) throw refuse('invalid', 'collab.step_invalid', { index });
    current = applied.doc;
    // What is recorded is the step as the schema read it, never the client's raw JSON.
    accepted.push(applied.step.toJSON());
  }
  if (current.content.size > COLLAB_LIMITS.docSize) throw refuse('invalid', 'collab.doc_too_large', { max: COLLAB_LIMITS.docSize });
  const at = command.metadata.now.toISOString();
  const next = version + accepted.length;
  const events: CollabDocEvent[] = [{ type: 'CollabStepsAccepted', data: { docId, userId, clientId, version, steps: accepted, at } }];
  if (Math.floor(next / COLLAB_SNAPSHOT_EVERY) > Math.floor(version / COLLAB_SNAPSHOT_EVERY)) {
    events.push({ type: 'CollabDocSnapshotted', data: { docId, version: next, doc: current.toJSON(), at } });
  }
  return events;
};

/** Only the owner hands out links; an editor's link could otherwise grant more than the owner meant. */
export const createCollabInvite = (command: CreateCollabInvite, state: CollabDoc): CollabDocEvent[] => {
  const { docId, actorId, inviteId, tokenHash, role } = command.data;
  const doc = visible(state, actorId);
  if (doc.ownerId !== actorId) throw refuse('forbidden', 'collab.owner_only');
  if (doc.invites[tokenHash]) return [];
  return [{ type: 'CollabInviteCreated', data: { docId, inviteId, tokenHash, role, createdBy: actorId, at: command.metadata.now.toISOString() } }];
};

/** Accepting a link again, or a link granting no more than one already has, records nothing; an edit link upgrades a reader. */
export const joinCollabDoc = (command: JoinCollabDoc, state: CollabDoc): CollabDocEvent[] => {
  const { docId, userId, tokenHash } = command.data;
  const invite = state.status === 'open' ? state.invites[tokenHash] : undefined;
  if (state.status === 'none' || !invite) throw refuse('not_found', 'collab.invite_invalid');
  // Said apart from a forged link: whoever holds it was invited once, and should ask the owner again.
  if (invite.revoked) throw refuse('not_found', 'collab.invite_revoked');
  const removedWith = state.removed[userId];
  if (removedWith !== undefined && invite.order < removedWith) throw refuse('forbidden', 'collab.removed');
  const access = accessOf(state, userId);
  if (access === 'owner' || access === 'edit' || access === invite.role) return [];
  return [{ type: 'CollabMemberJoined', data: { docId, userId, role: invite.role, inviteId: invite.inviteId, at: command.metadata.now.toISOString() } }];
};

/** Renaming to the title it already has records nothing. */
export const renameCollabDoc = (command: RenameCollabDoc, state: CollabDoc): CollabDocEvent[] => {
  const { docId, actorId } = command.data;
  const doc = owned(state, actorId);
  const title = titleOf(command.data.title);
  if (title === doc.title) return [];
  return [{ type: 'CollabDocRenamed', data: { docId, title, by: actorId, at: command.metadata.now.toISOString() } }];
};

/** Revoking a revoked link records nothing; an id the document never gave out is refused, since it is surely a mistake. */
export const revokeCollabInvite = (command: RevokeCollabInvite, state: CollabDoc): CollabDocEvent[] => {
  const { docId, actorId, inviteId } = command.data;
  const doc = owned(state, actorId);
  const invite = Object.values(doc.invites).find((one) => one.inviteId === inviteId);
  if (!invite) throw refuse('not_found', 'collab.invite_not_found');
  if (invite.revoked) return [];
  return [{ type: 'CollabInviteRevoked', data: { docId, inviteId, by: actorId, at: command.metadata.now.toISOString() } }];
};

/**
 * A member leaves on their own; anyone else is removed by the owner only. The owner can do neither
 * (the document would have nobody to manage it). Removing someone who is not a member records
 * nothing: the owner's second click, or a member who left meanwhile, gets what they wanted.
 */
export const removeCollabMember = (command: RemoveCollabMember, state: CollabDoc): CollabDocEvent[] => {
  const { docId, actorId, userId } = command.data;
  const at = command.metadata.now.toISOString();
  if (actorId === userId) {
    const doc = visible(state, actorId);
    if (doc.ownerId === actorId) throw refuse('conflict', 'collab.owner_fixed');
    return [{ type: 'CollabMemberLeft', data: { docId, userId, at } }];
  }
  const doc = owned(state, actorId);
  if (doc.ownerId === userId) throw refuse('conflict', 'collab.owner_fixed');
  if (!doc.members[userId]) return [];
  return [{ type: 'CollabMemberRemoved', data: { docId, userId, by: actorId, at } }];
};

/** The owner turns an editor into a reader or back; the same role again records nothing. */
export const changeCollabMemberRole = (command: ChangeCollabMemberRole, state: CollabDoc): CollabDocEvent[] => {
  const { docId, actorId, userId, role } = command.data;
  const doc = owned(state, actorId);
  if (doc.ownerId === userId) throw refuse('conflict', 'collab.owner_fixed');
  const current = doc.members[userId];
  if (!current) throw refuse('not_found', 'collab.member_not_found');
  if (current === role) return [];
  return [{ type: 'CollabMemberRoleChanged', data: { docId, userId, role, by: actorId, at: command.metadata.now.toISOString() } }];
};

export function decide(command: CollabDocCommand, state: CollabDoc): CollabDocEvent[] {
  switch (command.type) {
    case 'CreateCollabDoc':
      return createCollabDoc(command, state);
    case 'SubmitCollabSteps':
      return submitCollabSteps(command, state);
    case 'CreateCollabInvite':
      return createCollabInvite(command, state);
    case 'JoinCollabDoc':
      return joinCollabDoc(command, state);
    case 'RenameCollabDoc':
      return renameCollabDoc(command, state);
    case 'RevokeCollabInvite':
      return revokeCollabInvite(command, state);
    case 'RemoveCollabMember':
      return removeCollabMember(command, state);
    case 'ChangeCollabMemberRole':
      return changeCollabMemberRole(command, state);
    default:
      return assertNever(command);
  }
}

export const collabDecider: Decider<CollabDoc, CollabDocCommand, CollabDocEvent> = { initialState, evolve, decide };
