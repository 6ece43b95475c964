import { useSyncExternalStore } from 'react';
import { login as loginCall, fetchMe } from '../../api/auth.ts';
import { onUnauthorized } from '../../api/client.ts';
import { browserTokens } from '../../api/token.ts';
import { AuthStore, type AuthSnapshot } from './store.ts';

export const auth = new AuthStore({ tokens: browserTokens, login: loginCall, fetchMe, now: Date.now });

onUnauthorized(() => auth.tokenRevoked());

export const useAuth = (): AuthSnapshot => useSyncExternalStore(auth.subscribe, auth.getSnapshot);
