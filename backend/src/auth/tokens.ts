import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

export interface AccessClaims {
  sub: string;
  username: string;
}

export interface VerifiedClaims extends AccessClaims {
  /** When the token was issued, in milliseconds: JWT's `iat` has whole seconds, too coarse to order a sign-in against a password change. */
  issuedAt: number;
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
    private readonly now: () => number = Date.now,
  ) {
    this.secret = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  issue(claims: AccessClaims): string {
    const issuedAt = this.now();
    return jwt.sign({ username: claims.username, typ: 'access', iat: Math.floor(issuedAt / 1000), iat_ms: issuedAt }, this.secret, {
      algorithm: 'HS256',
      subject: claims.sub,
      expiresIn: this.ttlSeconds,
      // Two sign-ins in the same second must still get different tokens: a logout revokes one of them.
      jwtid: randomUUID(),
    });
  }

  /** Returns the claims, or null for a token that is malformed, forged, expired or of another type. */
  verify(token: string): VerifiedClaims | null {
    try {
      const payload = jwt.verify(token, this.secret, { algorithms: ['HS256'] });
      if (typeof payload === 'string' || payload.typ !== 'access' || typeof payload.sub !== 'string') return null;
      const issuedAt = typeof payload.iat_ms === 'number' ? payload.iat_ms : (payload.iat ?? 0) * 1000;
      return { sub: payload.sub, username: String(payload.username ?? ''), issuedAt };
    } catch {
      return null;
    }
  }
}
