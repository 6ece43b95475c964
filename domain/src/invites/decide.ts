import { refuse } from '../refuse.ts';
import { randomInt } from 'node:crypto';
import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolve, initialState, INVITE_ALPHABET, INVITE_LENGTH, InviteRefused, type Invite, type InviteEvent } from './invite.ts';

export type GenerateInviteCode = Command<'GenerateInviteCode', { code: string; createdBy: string }>;
export type RedeemInviteCode = Command<'RedeemInviteCode', { code: string; userId: string; username: string }>;
export type RevertRedemption = Command<'RevertRedemption', { code: string; userId: string }>;
export type RevokeInviteCode = Command<'RevokeInviteCode', { revokedBy: string }>;
export type InviteCommand = GenerateInviteCode | RedeemInviteCode | RevertRedemption | RevokeInviteCode;

export const generateInviteCode = (command: GenerateInviteCode, state: Invite): InviteEvent => {
  if (state.status !== 'unknown') throw refuse('conflict', 'auth.invite_exists');
  return { type: 'InviteCodeGenerated', data: { ...command.data, at: command.metadata.now.toISOString() } };
};

export const redeemInviteCode = (command: RedeemInviteCode, state: Invite): InviteEvent[] => {
  // A withdrawn code reads as no code at all: whoever holds it learns nothing more.
  if (state.status === 'unknown' || state.status === 'revoked') throw new InviteRefused('auth.invite_invalid');
  if (state.status === 'used') {
    if (state.usedBy === command.data.userId) return [];
    throw new InviteRefused('auth.invite_used');
  }
  return [{ type: 'InviteCodeRedeemed', data: { ...command.data, code: state.code, at: command.metadata.now.toISOString() } }];
};

export const revertRedemption = (command: RevertRedemption, state: Invite): InviteEvent[] => {
  if (state.status !== 'used' || state.usedBy !== command.data.userId) return [];
  return [{ type: 'InviteRedemptionReverted', data: { code: state.code, userId: command.data.userId, at: command.metadata.now.toISOString() } }];
};

/** Only an unused code can be withdrawn; withdrawing it again changes nothing. */
export const revokeInviteCode = (command: RevokeInviteCode, state: Invite): InviteEvent[] => {
  if (state.status === 'unknown') throw refuse('not_found', 'admin.invite_not_found');
  if (state.status === 'used') throw refuse('conflict', 'admin.invite_already_used');
  if (state.status === 'revoked') return [];
  return [{ type: 'InviteCodeRevoked', data: { code: state.code, revokedBy: command.data.revokedBy, at: command.metadata.now.toISOString() } }];
};

export function decide(command: InviteCommand, state: Invite): InviteEvent | InviteEvent[] {
  switch (command.type) {
    case 'GenerateInviteCode':
      return generateInviteCode(command, state);
    case 'RedeemInviteCode':
      return redeemInviteCode(command, state);
    case 'RevertRedemption':
      return revertRedemption(command, state);
    case 'RevokeInviteCode':
      return revokeInviteCode(command, state);
    default:
      return assertNever(command);
  }
}

export const inviteDecider: Decider<Invite, InviteCommand, InviteEvent> = { initialState, evolve, decide };

export const randomInviteCode = (): string =>
  Array.from({ length: INVITE_LENGTH }, () => INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)]).join('');
