import { refuse } from '../refuse.ts';
import { createHash } from 'node:crypto';
import { assertNever, type Command, type Decider, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/**
 * An e-mail address belongs to at most one account. The event store can only enforce uniqueness
 * within a stream, so each address gets a stream of its own that records who holds it.
 */

export type EmailReserved = DomainEvent<'EmailReserved', { email: string; userId: string }>;
export type EmailReleased = DomainEvent<'EmailReleased', { email: string; userId: string }>;
export type EmailClaimEvent = EmailReserved | EmailReleased;

export type EmailClaim = { status: 'free' } | { status: 'held'; userId: string };

export type ReserveEmail = Command<'ReserveEmail', { email: string; userId: string }>;
export type ReleaseEmail = Command<'ReleaseEmail', { email: string; userId: string }>;
export type EmailClaimCommand = ReserveEmail | ReleaseEmail;

export const initialState = (): EmailClaim => ({ status: 'free' });

export function evolve(_state: EmailClaim, event: EmailClaimEvent): EmailClaim {
  switch (event.type) {
    case 'EmailReserved':
      return { status: 'held', userId: event.data.userId };
    case 'EmailReleased':
      return { status: 'free' };
    default:
      return assertNever(event);
  }
}

export function decide(command: EmailClaimCommand, state: EmailClaim): EmailClaimEvent[] {
  switch (command.type) {
    case 'ReserveEmail':
      if (state.status === 'held') {
        if (state.userId === command.data.userId) return [];
        throw refuse('conflict', 'auth.email_taken', {}, 'email');
      }
      return [{ type: 'EmailReserved', data: command.data }];
    case 'ReleaseEmail':
      if (state.status === 'free' || state.userId !== command.data.userId) return [];
      return [{ type: 'EmailReleased', data: command.data }];
    default:
      return assertNever(command);
  }
}

export const emailClaimDecider: Decider<EmailClaim, EmailClaimCommand, EmailClaimEvent> = { initialState, evolve, decide };

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export const emailClaimStream = (email: string): string =>
  `emailclaim-${createHash('sha256').update(normaliseEmail(email)).digest('hex').slice(0, 32)}`;
