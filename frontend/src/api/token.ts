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
