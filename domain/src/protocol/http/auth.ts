import { z } from 'zod';
import { CODE_LENGTH } from '../limits.ts';
import { hasForbiddenCharacters, normaliseUsername } from '../username.ts';

/**
 * The account routes' requests and replies (`/backend/auth…`, `/backend/users/:id`); see `oauth.ts`
 * for how they are shared. A request schema is the one the route parses with; the client sends its `z.input`.
 */


const username = z
  .string({ error: 'auth.username_required' })
  .refine((name) => !hasForbiddenCharacters(name), 'auth.username_forbidden_characters')
  .transform(normaliseUsername)
  .pipe(z.string().regex(/^[\p{L}\p{N}_.-]{3,32}$/u, 'auth.username_invalid'));
export const email = z.string({ error: 'auth.email_required' }).trim().max(254, 'auth.email_too_long').pipe(z.email('auth.email_invalid'));
export const nickname = z.string().trim().max(32, 'auth.nickname_too_long');
/** A new password's rules, wherever one is set (sign-up, change, reset, an administrator's reset). */
export const password = z.string({ error: 'auth.password_required' }).min(8, 'auth.password_too_short').max(128, 'auth.password_too_long');
const codeText = z
  .string({ error: 'auth.code_required' })
  .trim()
  .regex(new RegExp(`^\\d{${CODE_LENGTH}}$`), 'auth.code_format');
/** Blank optional fields count as absent: the form sends what its inputs hold. */
const blankAsAbsent = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value ?? undefined), schema.optional());

export const registerBody = z.object({
  username,
  email,
  nickname: nickname.optional(),
  password,
  invite_code: blankAsAbsent(z.string().trim().max(64, 'auth.invite_invalid')),
  email_verification_code: blankAsAbsent(codeText),
});
export const emailBody = z.object({ email });
export const verifyEmailBody = z.object({ email, code: codeText });
export const changePasswordBody = z.object({ current_password: z.string({ error: 'auth.password_required' }).min(1, 'auth.password_required').max(128), new_password: password });
export const resetPasswordBody = z.object({ email, code: codeText, new_password: password });

export type RegisterBody = z.input<typeof registerBody>;
export type EmailBody = z.input<typeof emailBody>;
export type VerifyEmailBody = z.input<typeof verifyEmailBody>;
export type ChangePasswordBody = z.input<typeof changePasswordBody>;
export type ResetPasswordBody = z.input<typeof resetPasswordBody>;

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
