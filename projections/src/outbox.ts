import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Doc } from '@scriptorium/infra/readstore/port';
import type { MailOutboxed } from '@scriptorium/infra/mail/outbox';
import type { Projection } from './projection.ts';

/** Mail kept in the outbox when no SMTP server is configured (development): admins read codes here. */
export interface OutboxMailDoc extends Doc {
  from: string;
  to: string[];
  subject: string;
  text: string;
  created_at: string;
}

export const MAIL_OUTBOX = 'mail_outbox';

export const outboxProjection: Projection = {
  name: 'mail_outbox',
  collections: [MAIL_OUTBOX],
  handles: ['MailOutboxed'] satisfies MailOutboxed['type'][],
  async setup(store) {
    await store.collection(MAIL_OUTBOX).ensureIndex({ fields: { created_at: -1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const { mailId, from, to, subject, text, at } = recorded.data as MailOutboxed['data'];
    await tx.collection<OutboxMailDoc>(MAIL_OUTBOX).put({ _id: mailId, from, to, subject, text, created_at: at });
  },
};
