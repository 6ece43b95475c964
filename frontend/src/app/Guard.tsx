import { useEffect, useState, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useMatches } from 'react-router-dom';
import { PageLoading, PageState } from '../components/PageState.tsx';
import { recordPageView } from '../api/research.ts';
import { isSettled } from '../machines/bootstrap.ts';
import { auth, useAuth, verify } from './auth/index.ts';
import { bootstrap } from './bootstrap.ts';
import type { AuthStatus } from './auth/machine.ts';
import { guardNavigation, type RouteAccess } from './guard.ts';
import { ShieldIcon } from '../ui/icons.ts';

const NOT_FOUND: RouteAccess = { name: 'not-found', requiresAuth: false };

/** Spec §2: page views of these routes are recorded as user actions. */
const RECORDED_PAGES: ReadonlySet<string> = new Set(['note', 'cognition', 'research']);

const isRouteAccess = (handle: unknown): handle is RouteAccess => typeof handle === 'object' && handle !== null && typeof (handle as { name?: unknown }).name === 'string';

// A stored token counts as signed in: it is what the spec calls "marked authenticated".
const signedInStatus = (status: AuthStatus) => status === 'authenticated' || status === 'pending';

/** Applies `guardNavigation` to the current location; the rules themselves live in guard.ts. */
export function Guard({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const matches = useMatches();
  const { status, user } = useAuth();
  const ready = useSelector(bootstrap, isSettled);

  // Remember whether the user was signed in on arriving here, adjusting state during render so the
  // first decision for a new location already uses it.
  const [entry, setEntry] = useState(() => ({ key: location.key, signedIn: signedInStatus(status) }));
  let current = entry;
  if (entry.key !== location.key) {
    current = { key: location.key, signedIn: signedInStatus(status) };
    setEntry(current);
  }

  const route = [...matches].reverse().map((match) => match.handle).find(isRouteAccess) ?? NOT_FOUND;
  const decision = guardNavigation(route, location, { status, isActive: user?.is_active ?? false, isAdmin: user?.is_admin ?? false, isAuditor: user?.is_auditor ?? false }, current.signedIn);

  useEffect(() => {
    bootstrap.send({ type: bootstrap.getSnapshot().matches('idle') ? 'bootstrap.start' : 'route.changed', path: location.pathname });
  }, [location.pathname]);

  useEffect(() => {
    // On failure the auth actor turns `expired` and the next decision redirects; nothing to handle here.
    if (ready && decision.kind === 'verify') verify().catch(() => undefined);
  }, [ready, decision.kind]);

  const allowed = ready && decision.kind === 'allow';
  useEffect(() => {
    if (allowed && RECORDED_PAGES.has(route.name)) recordPageView(location.pathname);
  }, [allowed, route.name, location.pathname]);

  useEffect(() => {
    if (status === 'expired' && decision.kind !== 'redirect') auth.send({ type: 'auth.expiryAcknowledged' });
  }, [status, decision.kind]);

  // The spec's guard waits until the startup tasks are ready.
  if (!ready) return <PageLoading />;
  switch (decision.kind) {
    case 'verify':
      return <PageLoading />;
    case 'redirect':
      // Keyed by location: an unchanged <Navigate> left mounted from the previous location would not
      // navigate again (its effect depends only on the target).
      return <Navigate key={location.key} to={decision.to} replace />;
    case 'forbidden':
      return (
        <PageState icon={ShieldIcon} tone="danger" title={t('errors.forbidden')}>
          <p>{t('errors.forbiddenMessage')}</p>
        </PageState>
      );
    case 'allow':
      return children;
  }
}
