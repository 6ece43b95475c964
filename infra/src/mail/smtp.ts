import nodemailer, { type Transporter } from 'nodemailer';
import { MailError, type Mailer, type MailMessage } from './port.ts';

/** Sends through the SMTP server of `SMTP_URL` (`smtp://user:pass@host:587`, `smtps://…:465`). */
export class SmtpMailer implements Mailer {
  readonly transport = 'smtp' as const;
  private readonly transporter: Transporter;

  constructor(url: string, private readonly from: string) {
    this.transporter = nodemailer.createTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.transporter.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
    } catch (error) {
      throw new MailError(`SMTP delivery failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  async close(): Promise<void> {
    this.transporter.close();
  }
}
