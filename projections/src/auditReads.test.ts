import test from 'ava';
import type { StreamAudited } from '@scriptorium/domain/audit/audit';
import { AUDIT_READS, auditReadsProjection } from './auditReads.ts';
import { T1 } from './fixtures.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<StreamAudited>(auditReadsProjection);
const read = (streamId: string, action: StreamAudited['data']['action'] = 'events'): StreamAudited => ({ type: 'StreamAudited', data: { auditorId: 'a1', streamId, action, ...(action === 'events' && { after: 0, count: 500 }), at: T1 } });

test('every audit read is listed, newest first, once even when replayed', async (t) => {
  await spec
    .given(read('conversation-c1'), read('conversation-c1', 'export'))
    .replayed()
    .then(t, AUDIT_READS, [
      { auditor_id: 'a1', stream_id: 'conversation-c1', action: 'export', after: null, position: 2 },
      { auditor_id: 'a1', stream_id: 'conversation-c1', action: 'events', after: 0, count: 500, position: 1 },
    ], { sort: { position: -1 } });
});
