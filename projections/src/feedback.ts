import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import type { FeedbackEvent } from '@scriptorium/domain/feedback/feedback';
import type { Projection } from './projection.ts';

/** Feedback as the admin console lists it. */
export interface FeedbackDoc extends Doc {
  user_id: string;
  username: string;
  email: string;
  feedback_type: string;
  feedback_text: string;
  created_at: string;
}

export const FEEDBACK = 'feedback';

export const feedbackProjection: Projection = {
  name: 'feedback',
  collections: [FEEDBACK],
  handles: ['FeedbackSubmitted'] satisfies FeedbackEvent['type'][],
  async setup(store) {
    await store.collection(FEEDBACK).ensureIndex({ fields: { created_at: -1 } });
    await store.collection(FEEDBACK).ensureIndex({ fields: { feedback_type: 1, created_at: -1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const { feedbackId, userId, username, email, feedbackType, text, at } = recorded.data as FeedbackEvent['data'];
    await tx.collection<FeedbackDoc>(FEEDBACK).put({ _id: feedbackId, user_id: userId, username, email, feedback_type: feedbackType, feedback_text: text, created_at: at });
  },
};
