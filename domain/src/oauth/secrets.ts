import { createHash, randomBytes } from 'node:crypto';

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
export const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** A base64url SHA-256, what S256 challenges are. */
export const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))). */
export const s256 = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** A code or refresh token: the grant it belongs to, then 256 random bits. */
export const newSecret = (grantId: string): string => `${grantId}.${randomBytes(32).toString('base64url')}`;

/** The grant id a presented code or refresh token names; null for anything not shaped like ours. */
export function grantIdOf(secret: string): string | null {
  const match = /^([a-f0-9]{32})\.[A-Za-z0-9_-]{43}$/.exec(secret);
  return match ? match[1]! : null;
}
