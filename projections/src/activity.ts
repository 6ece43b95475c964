import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import type { PageViewed } from '@scriptorium/domain/activity/activity';
import { countOnce, type Projection } from './projection.ts';

/** Page views of one day, in total and per page (note, cognition, research…). */
export interface PageViewsDoc extends Doc {
  day: string;
  views: number;
  pages: Record<string, number>;
}

/** One user's page views on one day: how many people used the product that day. */
export interface VisitorDoc extends Doc {
  day: string;
  user_id: string;
  views: number;
}

export const PAGE_VIEWS = 'page_views_daily';
export const VISITORS = 'visitors_daily';

export const activityProjection: Projection = {
  name: 'activity',
  collections: [PAGE_VIEWS, VISITORS],
  handles: ['PageViewed'] satisfies PageViewed['type'][],
  async setup(store) {
    await store.collection(VISITORS).ensureIndex({ fields: { day: 1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const { userId, page, day } = (recorded.data as PageViewed['data']);
    await countOnce(tx.collection(PAGE_VIEWS), day, recorded.position, { $inc: { views: 1, [`pages.${page.replace(/[.$]/g, '_')}`]: 1 }, $set: { day } }, { upsert: true });
    await countOnce(tx.collection(VISITORS), `${day}:${userId}`, recorded.position, { $inc: { views: 1 }, $set: { day, user_id: userId } }, { upsert: true });
  },
};
