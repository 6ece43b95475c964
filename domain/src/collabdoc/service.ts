import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Node } from 'prosemirror-model';
import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import type { EventStore } from '@scriptorium/infra/eventstore/port';
import type { CollabAccess, CollabRole } from '../protocol/collab.ts';
import { collabSchema, emptyCollabDoc } from '../protocol/collabSchema.ts';
import { refuse } from '../refuse.ts';
import { accessOf, applySteps, collabStream, type CollabDocEvent, type CollabStepsAccepted, type ReportSource } from './collabdoc.ts';
import { collabDecider, type CollabDocCommand } from './decide.ts';

/** Where a rebuild may start: a recorded snapshot (the read model keeps them) and the stream revision it was recorded at. */
export interface CollabSnapshot {
  version: number;
  revision: number;
  doc: unknown;
}

const hashToken = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** A link's token: the document id (so accepting needs no look-up), then 256 random bits. */
const newToken = (docId: string): string => `${docId}.${randomBytes(32).toString('base64url')}`;

/** What the routes and the socket do to a shared document; each write answers the log position it reached (0 for nothing). */
export class CollabService {
  constructor(private readonly services: { commands: CommandHandler; events: EventStore; clock: () => Date }) {}

  private async run(userId: string, docId: string, command: Pick<CollabDocCommand, 'type' | 'data'>, clientId?: string) {
    const metadata = { now: this.services.clock(), userId, ...(clientId !== undefined && { clientId }) };
    return this.services.commands.handle(collabDecider, collabStream(docId), { ...command, metadata } as CollabDocCommand);
  }

  /** `start`: a report's canvas to co-edit, its content already in the shared schema. */
  async create(ownerId: string, title: string, start?: { report: ReportSource; doc: unknown }): Promise<{ docId: string; position: number }> {
    const docId = randomUUID().replaceAll('-', '');
    const { position } = await this.run(ownerId, docId, { type: 'CreateCollabDoc', data: { docId, ownerId, title, ...(start && { report: start.report, initial: start.doc }) } });
    return { docId, position };
  }

  /** The link's secret is shown once, here; the log keeps only its hash. */
  async invite(actorId: string, docId: string, role: CollabRole): Promise<{ inviteId: string; token: string; position: number }> {
    const token = newToken(docId);
    const inviteId = randomUUID();
    const { position } = await this.run(actorId, docId, { type: 'CreateCollabInvite', data: { docId, actorId, inviteId, tokenHash: hashToken(token), role } });
    return { inviteId, token, position };
  }

  async rename(actorId: string, docId: string, title: string): Promise<{ position: number }> {
    const { position } = await this.run(actorId, docId, { type: 'RenameCollabDoc', data: { docId, actorId, title } });
    return { position };
  }

  async revokeInvite(actorId: string, docId: string, inviteId: string): Promise<{ position: number }> {
    const { position } = await this.run(actorId, docId, { type: 'RevokeCollabInvite', data: { docId, actorId, inviteId } });
    return { position };
  }

  /** The owner removing `userId`, or `userId` leaving when it is the actor. */
  async removeMember(actorId: string, docId: string, userId: string): Promise<{ position: number }> {
    const { position } = await this.run(actorId, docId, { type: 'RemoveCollabMember', data: { docId, actorId, userId } });
    return { position };
  }

  async changeRole(actorId: string, docId: string, userId: string, role: CollabRole): Promise<{ position: number }> {
    const { position } = await this.run(actorId, docId, { type: 'ChangeCollabMemberRole', data: { docId, actorId, userId, role } });
    return { position };
  }

  async accept(userId: string, token: string): Promise<{ docId: string; access: CollabAccess; position: number }> {
    const docId = token.slice(0, token.indexOf('.'));
    const { newState, position } = await this.run(userId, docId, { type: 'JoinCollabDoc', data: { docId, userId, tokenHash: hashToken(token) } });
    return { docId, access: accessOf(newState, userId)!, position };
  }

  /** The version the document reached once the batch was accepted. */
  async submit(userId: string, docId: string, batch: { clientId: string; version: number; steps: unknown[] }): Promise<{ version: number; position: number }> {
    const { newState, position } = await this.run(userId, docId, { type: 'SubmitCollabSteps', data: { docId, userId, ...batch } }, batch.clientId);
    return { version: newState.status === 'open' ? newState.version : 0, position };
  }

  /** What `userId` may do with the document (its current version beside it); refused as missing for anyone else. */
  async access(userId: string, docId: string): Promise<{ access: CollabAccess; version: number }> {
    const { state } = await this.services.commands.load(collabDecider, collabStream(docId));
    const access = accessOf(state, userId);
    if (state.status === 'none' || access === null) throw refuse('not_found', 'collab.not_found');
    return { access, version: state.version };
  }

  /** Accepted batches, oldest first, from a stream revision on. */
  async batches(docId: string, fromRevision = 0): Promise<Array<CollabStepsAccepted['data'] & { revision: number }>> {
    const recorded = await this.services.events.readStream(collabStream(docId), { fromRevision });
    return recorded.flatMap((event) => {
      const typed = { type: event.type, data: event.data } as CollabDocEvent;
      return typed.type === 'CollabStepsAccepted' ? [{ ...typed.data, revision: event.revision }] : [];
    });
  }

  /**
   * The document at `version` (the latest when not given), rebuilt from the log: from the snapshot
   * when one is given (the nearest at or before `version`), else from the stream's start, taking any
   * snapshot on the way (a document that started with content has one at version 0).
   */
  async docAt(docId: string, snapshot: CollabSnapshot | null, version = Number.POSITIVE_INFINITY): Promise<{ version: number; doc: Node }> {
    let at = snapshot ? { version: snapshot.version, doc: Node.fromJSON(collabSchema, snapshot.doc) } : { version: 0, doc: emptyCollabDoc() };
    const recorded = await this.services.events.readStream(collabStream(docId), { fromRevision: snapshot ? snapshot.revision + 1 : 0 });
    for (const event of recorded) {
      const typed = { type: event.type, data: event.data } as CollabDocEvent;
      if (typed.type === 'CollabDocSnapshotted' && typed.data.version <= version && typed.data.version >= at.version) at = { version: typed.data.version, doc: Node.fromJSON(collabSchema, typed.data.doc) };
      else if (typed.type === 'CollabStepsAccepted') at = rebuild(at, [typed.data], version);
    }
    return at;
  }
}

/** Folds batches onto `start` up to `target` (inclusive; a batch is cut where the target falls inside it). */
export function rebuild(start: { version: number; doc: Node }, batches: ReadonlyArray<{ version: number; steps: unknown[] }>, target = Number.POSITIVE_INFINITY): { version: number; doc: Node } {
  let { version, doc } = start;
  for (const batch of batches) {
    if (version >= target) break;
    const end = batch.version + batch.steps.length;
    if (end <= version) continue;
    const steps = batch.steps.slice(version - batch.version, Math.min(batch.steps.length, target - batch.version));
    doc = applySteps(doc, steps);
    version += steps.length;
  }
  return { version, doc };
}
