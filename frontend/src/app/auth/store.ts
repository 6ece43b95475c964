import type { TokenStore } from '../../api/token.ts';
import { toClientUser, type ClientUser, type MeDto } from '../../api/user.ts';

/**
 * Why a plain external store and not React context or an XState actor: the API client (a 401
 * anywhere signs the user out), the navigation guard and the coming bootstrap machine all reach it
 * outside React, and it has no timers, retries or timeouts of its own — the bootstrap machine owns
 * those and calls `verify()`. Components read it through `useSyncExternalStore`.
 *
 * Status:
 * - `pending`: a token is stored but its user is not loaded (the spec's "marked authenticated but
 *   has no id"); the guard verifies it before deciding.
 * - `expired`: verification just failed; token and user are gone and the guard sends the user to
 *   login once, then acknowledges it back to `anonymous`.
 */
export type AuthStatus = 'anonymous' | 'pending' | 'authenticated' | 'expired';

export interface AuthSnapshot {
  status: AuthStatus;
  user: ClientUser | null;
}

export interface AuthDeps {
  tokens: TokenStore;
  login(username: string, password: string): Promise<string>;
  fetchMe(): Promise<MeDto>;
  now(): number;
}

export const USER_CACHE_MS = 10_000;

export class AuthStore {
  private snapshot: AuthSnapshot;
  private readonly listeners = new Set<() => void>();
  private cache: { token: string; user: ClientUser; at: number } | null = null;
  private verifying: Promise<ClientUser> | null = null;

  constructor(private readonly deps: AuthDeps) {
    this.snapshot = { status: deps.tokens.get() ? 'pending' : 'anonymous', user: null };
  }

  getSnapshot = (): AuthSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  async login(username: string, password: string): Promise<ClientUser> {
    const token = await this.deps.login(username, password);
    this.deps.tokens.set(token);
    this.cache = null;
    try {
      const user = await this.loadUser(token);
      this.set({ status: 'authenticated', user });
      return user;
    } catch (error) {
      this.signOut('anonymous');
      throw error;
    }
  }

  /** Loads the user behind the stored token; concurrent callers share one request. */
  verify(): Promise<ClientUser> {
    this.verifying ??= this.runVerify().finally(() => {
      this.verifying = null;
    });
    return this.verifying;
  }

  logout(): void {
    this.signOut('anonymous');
  }

  /** The API client already removed the token after a 401; forget the user to match. */
  tokenRevoked(): void {
    if (this.snapshot.status !== 'anonymous') this.signOut('anonymous');
  }

  acknowledgeExpiry(): void {
    if (this.snapshot.status === 'expired') this.set({ status: 'anonymous', user: null });
  }

  private async runVerify(): Promise<ClientUser> {
    const token = this.deps.tokens.get();
    if (!token) {
      this.signOut('anonymous');
      throw new Error('no stored token');
    }
    try {
      const user = await this.loadUser(token);
      this.set({ status: 'authenticated', user });
      return user;
    } catch (error) {
      this.signOut('expired');
      throw error;
    }
  }

  private async loadUser(token: string): Promise<ClientUser> {
    const cached = this.cache;
    if (cached && cached.token === token && this.deps.now() - cached.at < USER_CACHE_MS) return cached.user;
    const user = toClientUser(await this.deps.fetchMe());
    this.cache = { token, user, at: this.deps.now() };
    return user;
  }

  private signOut(status: 'anonymous' | 'expired'): void {
    this.deps.tokens.clear();
    this.cache = null;
    this.set({ status, user: null });
  }

  private set(next: AuthSnapshot): void {
    if (next.status === this.snapshot.status && next.user === this.snapshot.user) return;
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}
