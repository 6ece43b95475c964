import type { Scope } from '@scriptorium/domain/oauth/clients';

/** One kind of request a scope opens: these methods (any, when absent) on paths matching `path`. */
interface Opening {
  methods?: readonly string[];
  path: RegExp;
}

const WHO_AM_I: Opening = { methods: ['GET'], path: /^\/backend\/auth\/me$/ };
/** Ending its own token: how an app's password sign-in signs out (`scriptorium logout`). */
const SIGN_OUT: Opening = { methods: ['POST'], path: /^\/backend\/auth\/logout$/ };

/**
 * What each scope narrower than `account` opens. Only what the command-line assistant and the audit
 * reader call: a route added later is closed to them until it is listed here.
 */
const OPENS: Record<Exclude<Scope, 'account'>, readonly Opening[]> = {
  engineer: [
    WHO_AM_I,
    SIGN_OUT,
    { path: /^\/backend\/api\/ai-engineer\/(sessions|ws\/sessions)(\/|$)/ },
    { path: /^\/backend\/engineer\/trajectory\/files(\/|$)/ },
    { path: /^\/backend\/engineer\/v1\// },
  ],
  'audit:read': [WHO_AM_I, SIGN_OUT, { methods: ['GET'], path: /^\/backend\/audit\// }],
};

/** Whether a token with `scopes` (none: a browser's sign-in, which may do all) may make this request. */
export function scopesAllow(scopes: readonly string[] | undefined, method: string, path: string): boolean {
  if (scopes === undefined || scopes.includes('account')) return true;
  return scopes.some((scope) => (OPENS[scope as Exclude<Scope, 'account'>] ?? []).some((opening) => (opening.methods?.includes(method) ?? true) && opening.path.test(path)));
}
