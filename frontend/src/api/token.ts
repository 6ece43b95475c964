export const TOKEN_STORAGE_KEY = 'auth_token';

export interface TokenStore {
  get(): string | null;
  set(token: string): void;
  clear(): void;
}

/** The bearer token lives in local storage so a reload keeps the user signed in. */
export const browserTokens: TokenStore = {
  get: () => localStorage.getItem(TOKEN_STORAGE_KEY),
  set: (token) => localStorage.setItem(TOKEN_STORAGE_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_STORAGE_KEY),
};

let replacing: Promise<unknown> = Promise.resolve();

/**
 * Runs a call that ends this browser's sign-in and answers with its new token (a password change),
 * and stores that token. The server refuses the old token (a 401, the socket's 4401) possibly before
 * the answer arrives: `tokenSettled` lets such a refusal wait for it, then judge by the token held.
 */
export function replaceToken(call: () => Promise<string>): Promise<void> {
  const stored = call().then((token) => browserTokens.set(token));
  replacing = stored.catch(() => undefined);
  return stored;
}

/** Resolves once no call from `replaceToken` is on its way. */
export const tokenSettled = (): Promise<unknown> => replacing;
