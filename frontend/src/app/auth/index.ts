import { useSelector } from '@xstate/react';
import { createActor, fromPromise } from 'xstate';
import { login as loginCall, fetchMe } from '../../api/auth.ts';
import { onAccountInactive, onUnauthorized } from '../../api/client.ts';
import { queryClient } from '../../api/query.ts';
import { browserTokens } from '../../api/token.ts';
import type { ClientUser, MeDto } from '../../api/user.ts';
import { authMachine, authView, logIn, sameView, verifyUser, type AuthView } from './machine.ts';

/** The page's one auth actor; outside React read it with `auth.getSnapshot()`, tell it with `auth.send()`. */
export const auth = createActor(
  authMachine.provide({
    actors: {
      signIn: fromPromise<string, { username: string; password: string }>(({ input }) => loginCall(input.username, input.password)),
      fetchUser: fromPromise<MeDto, void>(() => fetchMe()),
    },
    guards: { hasToken: () => browserTokens.get() !== null },
    actions: {
      storeToken: (_, { token }: { token: string }) => browserTokens.set(token),
      clearToken: () => browserTokens.clear(),
    },
  }),
).start();

onUnauthorized(() => auth.send({ type: 'auth.tokenRevoked' }));
onAccountInactive(() => auth.send({ type: 'auth.accountInactive' }));

// Another user's data must never show: when the signed-in user goes (signed out, or another signs in
// in this tab), everything the query cache holds goes with them.
let owner = auth.getSnapshot().context.user?.id ?? null;
auth.subscribe(({ context }) => {
  const user = context.user?.id ?? null;
  if (user === owner) return;
  if (owner !== null) queryClient.removeQueries();
  owner = user;
});

export const login = (username: string, password: string): Promise<ClientUser> => logIn(auth, username, password);

export const verify = (): Promise<ClientUser> => verifyUser(auth);

export const useAuth = (): AuthView => useSelector(auth, authView, sameView);
