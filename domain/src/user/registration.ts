import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import type { CommandMetadata } from '@scriptorium/infra/eventsourcing/decider';
import { deterministicId } from '@scriptorium/infra/eventsourcing/ids';
import { inviteDecider } from '../invites/decide.ts';
import { inviteStream, normaliseInviteCode } from '../invites/invite.ts';
import { userDecider, userStream, type RegisterUser } from './decide.ts';
import { emailClaimDecider, emailClaimStream, normaliseEmail } from './emailClaim.ts';
import { nameClaimDecider, nameClaimStream } from './nameClaim.ts';
import { normaliseUsername, usernameSkeleton } from '../protocol/username.ts';

/** Usernames are unique regardless of case and width, so the id follows from the name and the user stream itself guards it. */
export const userIdFor = (username: string): string => deterministicId('user', normaliseUsername(username).toLowerCase());

/** Finds the account, if any, whose name looks like a name with this skeleton (from the read model). */
export type LookAlikes = (usernameKey: string) => Promise<string | undefined>;

export interface Registration {
  username: string;
  email: string;
  nickname: string;
  passwordHash: string;
  isAdmin: boolean;
  inviteCode?: string;
  emailVerified?: boolean;
}

function commandsFor(registration: Registration, metadata: CommandMetadata, lookAlikeHeldBy?: string) {
  const userId = userIdFor(registration.username);
  const email = normaliseEmail(registration.email);
  const inviteCode = registration.inviteCode === undefined ? undefined : normaliseInviteCode(registration.inviteCode);
  const usernameKey = usernameSkeleton(registration.username);
  const register: RegisterUser = {
    type: 'RegisterUser',
    data: {
      userId,
      username: normaliseUsername(registration.username),
      usernameKey,
      ...(lookAlikeHeldBy !== undefined && { lookAlikeHeldBy }),
      email,
      nickname: registration.nickname,
      passwordHash: registration.passwordHash,
      isAdmin: registration.isAdmin,
      ...(inviteCode !== undefined && { inviteCode }),
      ...(registration.emailVerified && { emailVerified: true }),
    },
    metadata,
  };
  return { userId, email, usernameKey, inviteCode, register };
}

/**
 * Asks each stream's decider, without appending, whether it would accept the registration, so
 * an ordinary refusal (a taken name or address, a bad or used invite code) writes nothing.
 * `registerAccount` still decides for real, which covers two registrations of one name, or of two
 * look-alike names, racing (the name claim stream); the read model's skeleton index covers accounts
 * registered before name claims were recorded.
 */
export async function precheckRegistration(commands: CommandHandler, registration: Registration, metadata: CommandMetadata, lookAlikes: LookAlikes): Promise<void> {
  const { userId, email, usernameKey, inviteCode, register } = commandsFor(registration, metadata, await lookAlikes(usernameSkeleton(registration.username)));
  userDecider.decide(register, (await commands.load(userDecider, userStream(userId))).state);
  emailClaimDecider.decide({ type: 'ReserveEmail', data: { email, userId }, metadata }, (await commands.load(emailClaimDecider, emailClaimStream(email))).state);
  nameClaimDecider.decide({ type: 'ReserveUsernameKey', data: { usernameKey, userId }, metadata }, (await commands.load(nameClaimDecider, nameClaimStream(usernameKey))).state);
  if (inviteCode !== undefined) {
    const { state } = await commands.load(inviteDecider, inviteStream(inviteCode));
    inviteDecider.decide({ type: 'RedeemInviteCode', data: { code: inviteCode, userId, username: register.data.username }, metadata }, state);
  }
}

/**
 * Registers an account across up to four streams: the e-mail claim, the name claim, the invite
 * code, then the user. If a later stream refuses, what this call took in the earlier ones is given back.
 */
export async function registerAccount(commands: CommandHandler, registration: Registration, metadata: CommandMetadata): Promise<{ userId: string; position: number }> {
  const { userId, email, usernameKey, inviteCode, register } = commandsFor(registration, metadata);
  const claim = await commands.handle(emailClaimDecider, emailClaimStream(email), { type: 'ReserveEmail', data: { email, userId }, metadata });
  let nameClaimed = false;
  let redeemed = false;
  try {
    nameClaimed = (await commands.handle(nameClaimDecider, nameClaimStream(usernameKey), { type: 'ReserveUsernameKey', data: { usernameKey, userId }, metadata })).newEvents.length > 0;
    if (inviteCode !== undefined) {
      const redemption = await commands.handle(inviteDecider, inviteStream(inviteCode), {
        type: 'RedeemInviteCode',
        data: { code: inviteCode, userId, username: register.data.username },
        metadata,
      });
      redeemed = redemption.newEvents.length > 0;
    }
    const registered = await commands.handle(userDecider, userStream(userId), register);
    return { userId, position: registered.position };
  } catch (error) {
    if (nameClaimed) await commands.handle(nameClaimDecider, nameClaimStream(usernameKey), { type: 'ReleaseUsernameKey', data: { usernameKey, userId }, metadata });
    if (redeemed) await commands.handle(inviteDecider, inviteStream(inviteCode!), { type: 'RevertRedemption', data: { code: inviteCode!, userId }, metadata });
    if (claim.newEvents.length > 0) {
      await commands.handle(emailClaimDecider, emailClaimStream(email), { type: 'ReleaseEmail', data: { email, userId }, metadata });
    }
    throw error;
  }
}

/** Moves an account to a new address: claim the new one, record the change, then free the old one. */
export async function changeEmail(commands: CommandHandler, userId: string, oldEmail: string, newEmail: string, metadata: CommandMetadata): Promise<number> {
  const email = normaliseEmail(newEmail);
  if (email === normaliseEmail(oldEmail)) return 0;
  await commands.handle(emailClaimDecider, emailClaimStream(email), { type: 'ReserveEmail', data: { email, userId }, metadata });
  const updated = await commands.handle(userDecider, userStream(userId), { type: 'UpdateProfile', data: { email }, metadata });
  await commands.handle(emailClaimDecider, emailClaimStream(oldEmail), { type: 'ReleaseEmail', data: { email: normaliseEmail(oldEmail), userId }, metadata });
  return updated.position;
}
