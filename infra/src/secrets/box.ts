import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Seals short secrets (API keys, SMTP passwords) for the log with AES-256-GCM: a fresh 96-bit IV per
 * seal and the 128-bit tag, so a sealed value can be neither read nor altered without the key.
 * Sealed form: `v1.<iv>.<tag>.<ciphertext>`, base64url; the version leaves room for another scheme.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('a secret box needs a 32-byte key');
    this.#key = Buffer.from(key);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  /** Throws `SecretUnreadable` for a value sealed with another key, altered, or not sealed at all. */
  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || iv === undefined || tag === undefined || body === undefined) throw new SecretUnreadable();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch (error) {
      throw new SecretUnreadable({ cause: error });
    }
  }
}

/** The sealed value cannot be opened with this key: most likely `CONNECTIONS_KEY` changed since it was sealed. */
export class SecretUnreadable extends Error {
  constructor(options?: { cause?: unknown }) {
    super('the sealed secret cannot be opened with this key', options);
    this.name = 'SecretUnreadable';
  }
}

/** A 32-byte key written as 64 hex digits or as base64 (either alphabet); undefined for anything else. */
export function parseSecretKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{42,43}={0,2}$/.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === 32 ? key : undefined;
}
