import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import type { Logger } from '@scriptorium/infra/log';
import type { Mailer } from '@scriptorium/infra/mail/port';
import { codeHash, newCode, rejectionAfter, verificationDecider, verificationStream, type CodePurpose } from '../user/emailVerification.ts';
import { normaliseEmail } from '../user/emailClaim.ts';
import { passwordResetMail, verificationMail } from './templates.ts';

export interface CodeSettings {
  ttlSeconds: number;
  resendSeconds: number;
  maxAttempts: number;
}

/** E-mail codes end to end: decide in the address's stream, then mail; check a code a user types. */
export class VerificationCodes {
  constructor(
    private readonly deps: { commands: CommandHandler; mailer: Mailer; secret: string; clock: () => Date; log: Logger },
    readonly settings: CodeSettings,
    private readonly purpose: CodePurpose = 'verify',
  ) {}

  /**
   * Issues a code and mails it. The countdown is decided before the mail goes out, so two
   * requests racing send one mail; a mail that fails voids its code and lifts the countdown.
   */
  async send(emailAddress: string): Promise<void> {
    const email = normaliseEmail(emailAddress);
    const code = newCode();
    const hash = codeHash(this.deps.secret, email, code);
    const stream = verificationStream(email, this.purpose);
    await this.deps.commands.handle(verificationDecider, stream, {
      type: 'IssueCode',
      data: { email, codeHash: hash, ttlSeconds: this.settings.ttlSeconds, resendSeconds: this.settings.resendSeconds, maxAttempts: this.settings.maxAttempts },
      metadata: { now: this.deps.clock() },
    });
    try {
      await this.deps.mailer.send((this.purpose === 'reset' ? passwordResetMail : verificationMail)(email, code, this.settings.ttlSeconds));
    } catch (error) {
      this.deps.log.warn({ err: error, email }, 'verification mail failed; code withdrawn');
      await this.deps.commands.handle(verificationDecider, stream, { type: 'WithdrawCode', data: { codeHash: hash }, metadata: { now: this.deps.clock() } });
      throw error;
    }
  }

  /** Voids a code that has done its work (a reset): it is good once. */
  async withdraw(emailAddress: string, code: string): Promise<void> {
    const email = normaliseEmail(emailAddress);
    await this.deps.commands.handle(verificationDecider, verificationStream(email, this.purpose), { type: 'WithdrawCode', data: { codeHash: codeHash(this.deps.secret, email, code) }, metadata: { now: this.deps.clock() } });
  }

  /** Resolves when the code is the address's current one; a wrong code spends an attempt and throws CodeRejected. */
  async check(emailAddress: string, code: string): Promise<void> {
    const email = normaliseEmail(emailAddress);
    const result = await this.deps.commands.handle(verificationDecider, verificationStream(email, this.purpose), {
      type: 'CheckCode',
      data: { codeHash: codeHash(this.deps.secret, email, code) },
      metadata: { now: this.deps.clock() },
    });
    const failed = result.newEvents.find((event) => event.type === 'VerificationAttemptFailed');
    if (failed?.type === 'VerificationAttemptFailed') throw rejectionAfter(failed);
  }
}
