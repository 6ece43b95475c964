import type { EventStore } from '../eventstore/port.ts';
import type { DomainEvent } from '../eventsourcing/decider.ts';
import { newId } from '../eventsourcing/ids.ts';
import type { Logger } from '../log.ts';
import { MailError, type Mailer, type MailMessage } from './port.ts';

export type MailOutboxed = DomainEvent<'MailOutboxed', { mailId: string; from: string; to: string[]; subject: string; text: string; at: string }>;

export const OUTBOX_CATEGORY = 'outbox';

/**
 * With no SMTP server the mail goes to the log (`outbox-<id>`) and a log line, where an admin can
 * read it: registration and verification keep working on a machine with no mail set up.
 */
export class OutboxMailer implements Mailer {
  readonly transport = 'outbox' as const;

  constructor(
    private readonly events: EventStore,
    private readonly from: string,
    private readonly log: Logger,
    private readonly clock: () => Date,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const mailId = newId();
    const at = this.clock().toISOString();
    const event: MailOutboxed = { type: 'MailOutboxed', data: { mailId, from: this.from, to: message.to, subject: message.subject, text: message.text, at } };
    try {
      await this.events.appendToStream(`${OUTBOX_CATEGORY}-${mailId}`, [{ id: mailId, ...event, metadata: { at } }], { expectedRevision: 'no_stream' });
    } catch (error) {
      throw new MailError('the outbox could not record the mail', { cause: error });
    }
    this.log.info({ mailId, to: message.to, subject: message.subject }, 'mail placed in the outbox (no SMTP_URL)');
  }

  async close(): Promise<void> {}
}
