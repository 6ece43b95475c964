import type { EventStore } from '../eventstore/port.ts';
import type { Logger } from '../log.ts';
import { OutboxMailer } from './outbox.ts';
import type { Mailer } from './port.ts';
import { SmtpMailer } from './smtp.ts';

export type * from './port.ts';
export { MailError } from './port.ts';

/** SMTP when SMTP_URL is set; otherwise the outbox in the log. */
export function createMailer(config: { SMTP_URL?: string | undefined; MAIL_FROM: string }, deps: { events: EventStore; log: Logger; clock: () => Date }): Mailer {
  return config.SMTP_URL ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM) : new OutboxMailer(deps.events, config.MAIL_FROM, deps.log, deps.clock);
}
