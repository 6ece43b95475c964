import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

export interface AccessClaims {
  sub: string;
  username: string;
}

/**
 * HS256 access tokens. Verification pins the algorithm, so a token signed with `none` or an
 * asymmetric algorithm is refused whatever its header says.
 */
export class TokenService {
  /** A key object, not the string: jsonwebtoken otherwise tries to parse the secret as a PEM key on every call. */
  private readonly secret: KeyObject;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.secret = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  issue(claims: AccessClaims): string {
    return jwt.sign({ username: claims.username, typ: 'access' }, this.secret, {
      algorithm: 'HS256',
      subject: claims.sub,
      expiresIn: this.ttlSeconds,
      // Two sign-ins in the same second must still get different tokens: a logout revokes one of them.
      jwtid: randomUUID(),
    });
  }

  /** Returns the claims, or null for a token that is malformed, forged, expired or of another type. */
  verify(token: string): AccessClaims | null {
    try {
      const payload = jwt.verify(token, this.secret, { algorithms: ['HS256'] });
      if (typeof payload === 'string' || payload.typ !== 'access' || typeof payload.sub !== 'string') return null;
      return { sub: payload.sub, username: String(payload.username ?? '') };
    } catch {
      return null;
    }
  }
}
