import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import type { AuditAction, StreamAudited } from '@scriptorium/domain/audit/audit';
import type { Projection } from './projection.ts';

/** One audit read, newest first in the admin console: who looked at which stream, when. */
export interface AuditReadDoc extends Doc {
  auditor_id: string;
  stream_id: string;
  action: AuditAction;
  after: number | null;
  count: number | null;
  at: string;
  position: number;
}

export const AUDIT_READS = 'audit_reads';

export const auditReadsProjection: Projection = {
  name: 'auditReads',
  collections: [AUDIT_READS],
  handles: ['StreamAudited'] satisfies StreamAudited['type'][],
  async setup(store) {
    await store.collection(AUDIT_READS).ensureIndex({ fields: { position: -1 } });
    await store.collection(AUDIT_READS).ensureIndex({ fields: { auditor_id: 1, position: -1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const { auditorId, streamId, action, after, count, at } = recorded.data as StreamAudited['data'];
    // Keyed by the event, so a replayed batch writes the same document again.
    await tx.collection<AuditReadDoc>(AUDIT_READS).put({ _id: recorded.id, auditor_id: auditorId, stream_id: streamId, action, after: after ?? null, count: count ?? null, at, position: recorded.position });
  },
};
