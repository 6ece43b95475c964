import { assertNever, DomainError, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import { errorText } from '../protocol/errors.ts';

export type InviteCodeGenerated = DomainEvent<'InviteCodeGenerated', { code: string; createdBy: string; at: string }>;
export type InviteCodeRedeemed = DomainEvent<'InviteCodeRedeemed', { code: string; userId: string; username: string; at: string }>;
/** The registration that redeemed the code failed afterwards (its name was taken): the code is free again. */
export type InviteRedemptionReverted = DomainEvent<'InviteRedemptionReverted', { code: string; userId: string; at: string }>;
/** An administrator withdrew an unused code (handed to the wrong person, say): it no longer lets anyone register. */
export type InviteCodeRevoked = DomainEvent<'InviteCodeRevoked', { code: string; revokedBy: string; at: string }>;

export type InviteEvent = InviteCodeGenerated | InviteCodeRedeemed | InviteRedemptionReverted | InviteCodeRevoked;

interface Issued {
  code: string;
  createdBy: string;
  createdAt: string;
}

export type Invite =
  | { status: 'unknown' }
  | ({ status: 'unused' } & Issued)
  | ({ status: 'used'; usedBy: string; usedAt: string } & Issued)
  | ({ status: 'revoked'; revokedBy: string; revokedAt: string } & Issued);

/** An unknown or used code (the HTTP layer answers 400 with this text). */
export class InviteRefused extends DomainError {
  constructor(code: 'auth.invite_invalid' | 'auth.invite_used') {
    super('invalid', code, errorText(code), {}, 'invite_code');
  }
}

export const initialState = (): Invite => ({ status: 'unknown' });

export function evolve(state: Invite, event: InviteEvent): Invite {
  switch (event.type) {
    case 'InviteCodeGenerated':
      return { status: 'unused', code: event.data.code, createdBy: event.data.createdBy, createdAt: event.data.at };
    case 'InviteCodeRedeemed':
      return state.status === 'unknown' ? state : { ...state, status: 'used', usedBy: event.data.userId, usedAt: event.data.at };
    case 'InviteRedemptionReverted':
      return state.status === 'used' ? { status: 'unused', code: state.code, createdBy: state.createdBy, createdAt: state.createdAt } : state;
    case 'InviteCodeRevoked':
      return state.status === 'unused' ? { status: 'revoked', code: state.code, createdBy: state.createdBy, createdAt: state.createdAt, revokedBy: event.data.revokedBy, revokedAt: event.data.at } : state;
    default:
      return assertNever(event);
  }
}

/** Codes are typed by hand: upper case, without the look-alikes 0/O, 1/I/L. */
export const INVITE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const INVITE_LENGTH = 8;

export const normaliseInviteCode = (code: string): string => code.trim().toUpperCase();

export const inviteStream = (code: string): string => `invite-${normaliseInviteCode(code)}`;
