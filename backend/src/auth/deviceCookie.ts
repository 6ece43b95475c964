import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

/** The cookie's name; it is sent only to the sign-in routes (`DEVICE_COOKIE_PATH`). */
export const DEVICE_COOKIE = 'scriptorium_device';
export const DEVICE_COOKIE_PATH = '/backend/auth';
/** How long a browser stays known after its last good sign-in. */
export const DEVICE_COOKIE_MAX_AGE_MS = 180 * 24 * 3600 * 1000;

/**
 * OWASP's device cookies: a browser that signed in with the right password gets a cookie naming the
 * user and a random device id, signed with a key derived from the server secret. Presented again with
 * that user's name, it shows the sign-in comes from a browser the owner used, which the per-account
 * delay (guesses from anywhere) then spares. It proves nothing by itself: the password is still checked.
 */
export class DeviceCookies {
  private readonly key: Buffer;

  constructor(secret: string) {
    // A key of its own: a device cookie's MAC can never double as anything the server secret signs.
    this.key = createHmac('sha256', secret).update('scriptorium device cookie v1').digest();
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest();
  }

  issue(userId: string, deviceId: string = randomUUID()): string {
    const payload = `${Buffer.from(userId).toString('base64url')}.${deviceId}`;
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The device id when `value` is a cookie this server signed for `userId`; null otherwise. */
  deviceOf(value: string | undefined, userId: string): string | null {
    const parts = value?.split('.') ?? [];
    if (parts.length !== 3) return null;
    const [user, deviceId, mac] = parts as [string, string, string];
    const expected = this.mac(`${user}.${deviceId}`);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return Buffer.from(user, 'base64url').toString() === userId ? deviceId : null;
  }
}
