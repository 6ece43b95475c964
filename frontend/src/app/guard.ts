import type { AuthStatus } from './auth/machine.ts';

/** Route names the spec's guard lets through without login, whatever their requiresAuth says. */
const OPEN_ROUTES: ReadonlySet<string> = new Set(['index', 'login', 'register', 'welcome', 'shared-note', 'shared-folder', 'shared-cognition', 'cognition']);

export const DRAFT_PATH = '/draft';
export const LOGIN_PATH = '/login';
export const HOME_PATH = '/research';

export interface RouteAccess {
  name: string;
  requiresAuth?: boolean;
  requiresAdmin?: boolean;
  /** Auditors and administrators (/audit). */
  requiresAuditor?: boolean;
}

export interface Target {
  pathname: string;
  search: string;
  hash: string;
}

export interface AuthView {
  status: AuthStatus;
  isActive: boolean;
  isAdmin: boolean;
  isAuditor?: boolean;
}

export type GuardDecision =
  | { kind: 'allow' }
  | { kind: 'verify' }
  | { kind: 'redirect'; to: string }
  | { kind: 'forbidden' };

const isAuthPage = (route: RouteAccess) => route.name === 'login' || route.name === 'register';

export const fullPath = (target: Target): string => `${target.pathname}${target.search}${target.hash}`;

export const loginRedirect = (target: Target): string => `${LOGIN_PATH}?redirect=${encodeURIComponent(fullPath(target))}`;

function isOpen(route: RouteAccess, target: Target): boolean {
  if (OPEN_ROUTES.has(route.name) || route.requiresAuth === false) return true;
  return route.name === 'draft' && new URLSearchParams(target.search).get('share') === 'true';
}

/**
 * The spec's navigation guard (§2) as a pure decision.
 *
 * `enteredSignedIn` says whether the user was already signed in (or held a token) when this location
 * was entered. "An authenticated user opening login or register is sent to the draft page" is about
 * opening those pages; a user who signs in on the login page must instead reach the redirect target,
 * which the login page navigates to itself.
 */
export function guardNavigation(route: RouteAccess, target: Target, auth: AuthView, enteredSignedIn: boolean): GuardDecision {
  switch (auth.status) {
    case 'pending':
      return { kind: 'verify' };
    case 'expired':
      // Sending someone from login to login would only nest the redirect query.
      return isAuthPage(route) ? { kind: 'allow' } : { kind: 'redirect', to: loginRedirect(target) };
    case 'authenticated':
      if (!auth.isActive) return route.name === 'draft' ? { kind: 'allow' } : { kind: 'redirect', to: DRAFT_PATH };
      if (isAuthPage(route) && enteredSignedIn) return { kind: 'redirect', to: DRAFT_PATH };
      if (route.requiresAdmin && !auth.isAdmin) return { kind: 'forbidden' };
      if (route.requiresAuditor && !auth.isAdmin && !auth.isAuditor) return { kind: 'forbidden' };
      return { kind: 'allow' };
    case 'anonymous':
      return isOpen(route, target) ? { kind: 'allow' } : { kind: 'redirect', to: loginRedirect(target) };
  }
}

/**
 * Where to go after signing in: the redirect query if it is a path inside this app (never another
 * origin, never back to login or register), else the research home.
 */
export function afterLoginPath(redirect: string | null): string {
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.includes('\\')) return HOME_PATH;
  const pathname = redirect.split(/[?#]/, 1)[0];
  if (pathname === LOGIN_PATH || pathname === '/register') return HOME_PATH;
  return redirect;
}

/** Spec: paths beginning with /share render full-screen without the sidebar (this includes /shared/…). */
export const isFullScreenPath = (pathname: string): boolean => pathname.startsWith('/share');
