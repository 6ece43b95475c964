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
export type CollabDocCommand = CreateCollabDoc | SubmitCollabSteps | CreateCollabInvite | JoinCollabDoc;

/** Someone who is not a member is told the document does not exist, so ids cannot be probed. */
function visible(state: CollabDoc, userId: string): Open {
  if (state.status === 'none' || accessOf(state, userId) === null) throw refuse('not_found', 'collab.not_found');
  return state;
}

/** Creating the same document again (a retried request) records nothing. */
export const createCollabDoc = (command: CreateCollabDoc, state: CollabDoc): CollabDocEvent[] => {
  const { docId, ownerId } = command.data;
  if (state.status !== 'none') {
    if (state.ownerId !== ownerId) throw refuse('not_found', 'collab.not_found');
    return [];
  }
  const title = command.data.title.trim();
  if (title === '') throw refuse('invalid', 'collab.title_empty', {}, 'title');
  if (title.length > COLLAB_LIMITS.title) throw refuse('invalid', 'collab.title_too_long', {}, 'title');
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
  const access = accessOf(state, userId);
  if (access === 'owner' || access === 'edit' || access === invite.role) return [];
  return [{ type: 'CollabMemberJoined', data: { docId, userId, role: invite.role, inviteId: invite.inviteId, at: command.metadata.now.toISOString() } }];
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
    default:
      return assertNever(command);
  }
}

export const collabDecider: Decider<CollabDoc, CollabDocCommand, CollabDocEvent> = { initialState, evolve, decide };
