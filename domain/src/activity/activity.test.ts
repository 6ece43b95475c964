import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { activityDecider, type ActivityEvent } from './activity.ts';

const spec = deciderSpec(activityDecider);
const view = (path: string, iso: string): ActivityEvent => ({ type: 'PageViewed', data: { userId: 'u1', page: 'note', path, day: '2026-05-01', at: iso } });
const record = (path: string, iso: string) => ({ type: 'RecordPageView' as const, data: { userId: 'u1', page: 'note', path, day: '2026-05-01' }, metadata: at(iso) });

test('a page view is recorded, and the same page again within a minute is the same visit', (t) => {
  spec([]).when(record('/note', '2026-05-01T08:00:00.000Z')).then(t, [view('/note', '2026-05-01T08:00:00.000Z')]);
  spec([view('/note', '2026-05-01T08:00:00.000Z')]).when(record('/note', '2026-05-01T08:00:30.000Z')).then(t, []);
  spec([view('/note', '2026-05-01T08:00:00.000Z')]).when(record('/note', '2026-05-01T08:01:00.000Z')).then(t, [view('/note', '2026-05-01T08:01:00.000Z')]);
  spec([view('/note', '2026-05-01T08:00:00.000Z')]).when(record('/research', '2026-05-01T08:00:10.000Z')).then(t, [{ type: 'PageViewed', data: { userId: 'u1', page: 'note', path: '/research', day: '2026-05-01', at: '2026-05-01T08:00:10.000Z' } }]);
});
