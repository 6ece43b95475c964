import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

export interface AccessClaims {
  sub: string;
  username: string;
  /** Set on tokens issued to an OAuth client (RFC 9068's `client_id`), with the grant that issued them. */
  clientId?: string;
  grantId?: string;
  /** The scopes an app's token carries (RFC 9068's `scope`), by OAuth or a password sign-in; a browser sign-in's has none and may do all. */
  scopes?: readonly string[];
  /** An app's password sign-in (OpenID's `sid`): the token holds only while that sign-in does. */
  signInId?: string;
}

export interface VerifiedClaims extends AccessClaims {
  /** When the token was issued, in milliseconds: JWT's `iat` has whole seconds, too coarse to order a sign-in against a password change. */
  issuedAt: number;
  /** When the token expires, in milliseconds. */
  expiresAt: number;
}

/** How many verified tokens a process remembers; past it the memory starts again. */
const VERIFIED_MAX = 10_000;

/**
 * HS256 access tokens. Verification pins the algorithm, so a token signed with `none` or an
 * asymmetric algorithm is refused whatever its header says.
 */
export class TokenService {
  /** A key object, not the string: jsonwebtoken otherwise tries to parse the secret as a PEM key on every call. */
  private readonly secret: KeyObject;
  /**
   * Tokens whose signature checked out, with their claims: a client sends the same token with every
   * call, and checking its HMAC and parsing it again was a tenth of a cached history read. Only the
   * signature and the claims are remembered; expiry is judged on every call, as jsonwebtoken judges it
   * (expired from the second `exp` names), and whether the sign-in still holds is the caller's check.
   */
  private readonly verified = new Map<string, VerifiedClaims>();

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.secret = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  /** `ttlSeconds`: an OAuth client's shorter lifetime; a signed-in browser gets the configured one. */
  issue(claims: AccessClaims, ttlSeconds = this.ttlSeconds): string {
    const issuedAt = this.now();
    const oauth = claims.clientId !== undefined ? { client_id: claims.clientId, grant: claims.grantId } : {};
    const session = claims.signInId !== undefined ? { sid: claims.signInId } : {};
    const scope = claims.scopes !== undefined ? { scope: claims.scopes.join(' ') } : {};
    return jwt.sign({ username: claims.username, typ: 'access', iat: Math.floor(issuedAt / 1000), iat_ms: issuedAt, ...oauth, ...session, ...scope }, this.secret, {
      algorithm: 'HS256',
      subject: claims.sub,
      expiresIn: ttlSeconds,
      // Two sign-ins in the same second must still get different tokens: a logout revokes one of them.
      jwtid: randomUUID(),
    });
  }

  /** Returns the claims, or null for a token that is malformed, forged, expired or of another type. */
  verify(token: string): VerifiedClaims | null {
    const known = this.verified.get(token);
    if (known) return this.now() < known.expiresAt ? known : null;
    const claims = this.check(token);
    if (claims && claims.expiresAt > 0) {
      if (this.verified.size >= VERIFIED_MAX) this.verified.clear();
      this.verified.set(token, claims);
    }
    return claims;
  }

  private check(token: string): VerifiedClaims | null {
    try {
      // Expiry is judged by the same clock that issued the token.
      const payload = jwt.verify(token, this.secret, { algorithms: ['HS256'], clockTimestamp: Math.floor(this.now() / 1000) });
      if (typeof payload === 'string' || payload.typ !== 'access' || typeof payload.sub !== 'string') return null;
      const issuedAt = typeof payload.iat_ms === 'number' ? payload.iat_ms : (payload.iat ?? 0) * 1000;
      const oauth = typeof payload.client_id === 'string' && typeof payload.grant === 'string' ? { clientId: payload.client_id, grantId: payload.grant } : {};
      const session = typeof payload.sid === 'string' ? { signInId: payload.sid } : {};
      const scope = typeof payload.scope === 'string' ? { scopes: payload.scope.split(' ') } : {};
      return { sub: payload.sub, username: String(payload.username ?? ''), issuedAt, expiresAt: (payload.exp ?? 0) * 1000, ...oauth, ...session, ...scope };
    } catch {
      return null;
    }
  }
}
