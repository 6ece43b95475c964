/** Why a page could not be read; the research agent reports the page as skipped with this reason. */
export type FetchReason = 'bad_url' | 'blocked_address' | 'too_large' | 'timeout' | 'bad_type' | 'http_status' | 'too_many_redirects' | 'network';

export class FetchError extends Error {
  constructor(
    readonly reason: FetchReason,
    message: string,
    readonly details: { url?: string; status?: number; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'FetchError';
  }
}
