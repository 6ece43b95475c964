import { z } from 'zod';

/** The account routes' replies (`/backend/auth…`, `/backend/users/:id`); see `oauth.ts` for how they are shared. */

/** The user as `GET /auth/me` returns it (spec §3: _id, username, email, created_at, is_active, is_admin, email_verified; the rest beyond it). */
export const userReply = z.object({
  _id: z.string(),
  id: z.string(),
  username: z.string(),
  email: z.string(),
  /** The name asked for at registration, shown to the user; the user name when none was given. */
  nickname: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  is_active: z.boolean(),
  is_admin: z.boolean(),
  /** Reads any stream at /audit. */
  is_auditor: z.boolean(),
  email_verified: z.boolean(),
});

export const registrationSettings = z.object({
  invite_code_required: z.boolean(),
  email_verification_required: z.boolean(),
  code_length: z.number().int(),
  resend_seconds: z.number().int(),
});

/** A sign-in's token (spec §3: OAuth2's password flow shape); the admin console's says the account is an administrator. */
export const signInReply = z.object({ access_token: z.string(), token_type: z.literal('bearer') });
export const adminSignInReply = signInReply.extend({ is_admin: z.literal(true) });

/** A reply that only says what happened, in Chinese (the spec's texts). */
export const messageReply = z.object({ message: z.string() });

/** A code was mailed (or, for a reset, would have been): how long it lasts and when another may be asked for, in seconds. */
export const codeSentReply = messageReply.extend({ expires_in: z.number().int(), resend_after: z.number().int() });

export const emailVerifiedReply = messageReply.extend({ email: z.string(), email_verified: z.literal(true), account_verified: z.boolean() });

export type UserReply = z.infer<typeof userReply>;
export type RegistrationSettings = z.infer<typeof registrationSettings>;
export type SignInReply = z.infer<typeof signInReply>;
export type MessageReply = z.infer<typeof messageReply>;
export type CodeSentReply = z.infer<typeof codeSentReply>;
export type EmailVerifiedReply = z.infer<typeof emailVerifiedReply>;
