import test from 'ava';
import type { PageViewed } from '@scriptorium/domain/activity/activity';
import { activityProjection, PAGE_VIEWS, VISITORS } from './activity.ts';
import { T1 } from './fixtures.ts';
import { projectionSpec } from './testing.ts';

const spec = projectionSpec<PageViewed>(activityProjection);
const viewed = (userId: string, page: string, day = '2026-03-01'): PageViewed => ({ type: 'PageViewed', data: { userId, page, path: `/${page}`, day, at: T1 } });

test('page views are counted per day and per page', async (t) => {
  await spec
    .given(viewed('u1', 'notes'), viewed('u1', 'notes'), viewed('u2', 'research.v2'), viewed('u1', 'notes', '2026-03-02'))
    .then(t, PAGE_VIEWS, [
      { _id: '2026-03-01', day: '2026-03-01', views: 3, pages: { notes: 2, research_v2: 1 } },
      { _id: '2026-03-02', views: 1, pages: { notes: 1 } },
    ]);
});

test("each day's visitors are listed once with their views", async (t) => {
  await spec
    .given(viewed('u1', 'notes'), viewed('u2', 'notes'), viewed('u1', 'cognition'), viewed('u1', 'notes', '2026-03-02'))
    .then(t, VISITORS, [{ user_id: 'u1', views: 2 }, { user_id: 'u2', views: 1 }], { filter: { day: '2026-03-01' }, sort: { user_id: 1 } });
});

test('a page view replayed after a crash (standalone Mongo) is counted once', async (t) => {
  await spec.given(viewed('u1', 'notes')).replayed().thenDoc(t, PAGE_VIEWS, '2026-03-01', { views: 1 });
});
