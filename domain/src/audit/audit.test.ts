import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { auditDecider } from './decide.ts';

const spec = deciderSpec(auditDecider);

test('every audit read is recorded, the same read twice too', (t) => {
  const read = { type: 'RecordAuditRead' as const, data: { auditorId: 'a1', streamId: 'conversation-c1', action: 'events' as const, after: 0, count: 500 }, metadata: at('2026-05-01T08:00:00.000Z') };
  const recorded = { type: 'StreamAudited' as const, data: { ...read.data, at: '2026-05-01T08:00:00.000Z' } };
  spec([]).when(read).then(t, [recorded]);
  spec([recorded]).when(read).then(t, [recorded]);
});
