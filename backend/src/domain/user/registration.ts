import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import type { CommandMetadata } from '@scriptorium/infra/eventsourcing/decider';
import { deterministicId } from '@scriptorium/infra/eventsourcing/ids';
import { userDecider, userStream } from './decide.ts';
import { emailClaimDecider, emailClaimStream, normaliseEmail } from './emailClaim.ts';

/** Usernames are unique regardless of case, so the id follows from the name and the user stream itself guards it. */
export const userIdFor = (username: string): string => deterministicId('user', username.trim().toLowerCase());

export interface Registration {
  username: string;
  email: string;
  nickname: string;
  passwordHash: string;
  isAdmin: boolean;
}

/**
 * Registers an account across two streams: the e-mail claim first, then the user. If the user
 * stream refuses (the name is taken), a claim made by this call is released again.
 */
export async function registerAccount(commands: CommandHandler, registration: Registration, metadata: CommandMetadata): Promise<{ userId: string; position: number }> {
  const userId = userIdFor(registration.username);
  const email = normaliseEmail(registration.email);
  const claim = await commands.handle(emailClaimDecider, emailClaimStream(email), { type: 'ReserveEmail', data: { email, userId }, metadata });
  try {
    const registered = await commands.handle(userDecider, userStream(userId), {
      type: 'RegisterUser',
      data: { userId, username: registration.username.trim(), email, nickname: registration.nickname, passwordHash: registration.passwordHash, isAdmin: registration.isAdmin },
      metadata,
    });
    return { userId, position: registered.position };
  } catch (error) {
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
