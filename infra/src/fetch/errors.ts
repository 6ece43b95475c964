/** Why a page could not be read; the research agent reports the page as skipped with this reason. */
export type FetchReason = 'bad_url' | 'blocked_address' | 'too_large' | 'timeout' | 'bad_type' | 'http_status' | 'too_many_redirects' | 'network';

/**
 * Why exactly, by a code of the kernel's error catalogue (`fetch.*`, domain/src/protocol/errors.ts),
 * which words it in each language; each code's params are the names its text fills.
 */
export const FETCH_CODES = [
  'fetch.timeout',
  'fetch.redirect_without_location',
  'fetch.too_many_redirects',
  'fetch.unreachable',
  'fetch.http_status',
  'fetch.unsupported_type',
  'fetch.untyped',
  'fetch.unknown_encoding',
  'fetch.connection_lost',
  'fetch.too_large',
  'fetch.bad_url',
  'fetch.not_http',
  'fetch.dns_failed',
  'fetch.blocked_address',
  'fetch.too_complex',
] as const;

export type FetchCode = (typeof FETCH_CODES)[number];

export class FetchError extends Error {
  readonly params: Readonly<Record<string, string | number>>;

  /** The message is for logs; what a person or a model reads is the catalogue's text for `code` and `params`. */
  constructor(
    readonly reason: FetchReason,
    readonly code: FetchCode,
    params: Readonly<Record<string, string | number>>,
    readonly details: { url?: string; status?: number; cause?: unknown } = {},
  ) {
    super(`${code}${Object.keys(params).length > 0 ? ` ${JSON.stringify(params)}` : ''}`, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'FetchError';
    this.params = { ...params };
  }
}
