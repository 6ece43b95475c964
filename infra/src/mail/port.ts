/**
 * The Mailer port: plain-text mail to one or more addresses. Adapters: SMTP (nodemailer) when SMTP
 * is set in Connections (or seeded by `SMTP_URL`), otherwise the outbox, which records each mail in
 * the log for admins to read.
 */

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  /** Resolves once the mail is accepted (by the SMTP server, or by the log); throws a MailError otherwise. */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export class MailError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MailError';
  }
}
