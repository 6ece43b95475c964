import { DomainError, type DomainErrorKind } from '@scriptorium/infra/eventsourcing/decider';
import { HashingBusy } from '@scriptorium/infra/auth/passwords';
import { anyErrorText, coded, type CodedError, type ErrorCode, type ErrorParams, type ParamsThen } from '@scriptorium/domain/protocol/errors';
import { validationIssue, type ValidationIssue } from '@scriptorium/domain/protocol/validation';
import type { Next, ParameterizedContext as Context } from 'koa';
import { z } from 'zod';

export type { ValidationIssue };

/** A refusal with its status; `detail` is the catalogue's Chinese text, or the 422 list of issues. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[],
    readonly code: string,
    readonly params: Readonly<Record<string, string | number>> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : 'validation failed');
    this.name = 'HttpError';
  }
}

export function httpError<Code extends ErrorCode>(status: number, code: Code, ...[params, headers]: ParamsThen<Code, [headers?: Record<string, string>]>): HttpError {
  const given = (params ?? {}) as ErrorParams<Code>;
  return new HttpError(status, anyErrorText(code, given), code, given, headers);
}

/** A 422 about one field of the body, worded by the catalogue. */
export function invalidField<Code extends ErrorCode>(loc: Array<string | number>, code: Code, ...[params, type = 'value_error']: ParamsThen<Code, [type?: string]>): HttpError {
  const given = (params ?? {}) as ErrorParams<Code>;
  return new HttpError(422, [{ loc: ['body', ...loc], msg: anyErrorText(code, given), type, ...coded(code, given) }], code, given);
}

const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid: 422,
  not_found: 404,
  forbidden: 403,
  conflict: 409,
  unauthorized: 401,
  budget_exhausted: 402,
  budget_busy: 429,
};

export const validationError = (issues: z.core.$ZodIssue[], location: 'body' | 'query' | 'path'): HttpError =>
  new HttpError(
    422,
    issues.map((issue) => validationIssue(issue, location)),
    'validation.failed',
  );

/** A failure as the api answers it, before a family of routes gives it its shape. */
export interface Refusal extends CodedError {
  status: number;
  detail: string | ValidationIssue[];
  headers: Record<string, string>;
}

/** How a family of routes words its refusals, for clients that expect another shape than `{detail, code}`. */
export type RefusalShape = (refusal: Refusal) => { status: number; body: unknown };

const standardShape: RefusalShape = ({ status, detail, headers: _headers, ...code }) => ({ status, body: { detail, ...code } });

/**
 * Turns every failure into `{detail, code, params?}` with a catalogue status; internals never reach the
 * client. `shapes` maps a path prefix to another wording of the same refusal (the OpenAI-compatible
 * routes answer in OpenAI's shape, which its clients read).
 */
export function errorMiddleware(shapes: Record<string, RefusalShape> = {}) {
  const shapeOf = (path: string) => Object.entries(shapes).find(([prefix]) => path.startsWith(prefix))?.[1] ?? standardShape;
  const answer = (ctx: Context, refusal: Refusal) => {
    const { status, body } = shapeOf(ctx.path)(refusal);
    ctx.status = status;
    ctx.set(refusal.headers);
    ctx.body = body;
  };
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.body === undefined && ctx.path.startsWith('/backend')) {
        if (ctx.status === 404) answer(ctx, plain(404, 'http.not_found'));
        // The router's own answer to a known path asked with another method; its Allow header stays.
        else if (ctx.status === 405) answer(ctx, plain(405, 'http.method_not_allowed'));
      }
    } catch (error) {
      const refusal = toResponse(error);
      // 501 is a service this deployment does not offer (speech without a server): a refusal, not a failure.
      if (refusal.status >= 500 && refusal.status !== 501) ctx.state.log?.error({ err: error }, 'request failed');
      else ctx.state.log?.info({ status: refusal.status, detail: refusal.detail, code: refusal.code }, 'request refused');
      answer(ctx, refusal);
    }
  };
}

const plain = <Code extends ErrorCode>(status: number, code: Code): Refusal => ({ status, detail: anyErrorText(code), headers: {}, code });

function toResponse(error: unknown): Refusal {
  if (error instanceof HttpError) return { status: error.status, detail: error.detail, headers: error.headers, ...coded(error.code, error.params) };
  if (error instanceof DomainError) {
    const status = STATUS_OF_KIND[error.kind];
    const what = coded(error.code, error.params);
    if (status === 422) return { status, detail: [{ loc: ['body', ...(error.field ? [error.field] : [])], msg: error.message, type: 'value_error', ...what }], headers: {}, ...what };
    return { status, detail: error.message, headers: {}, ...what };
  }
  // Too many password hashes already wait (sign-in, sign-up, a change or a reset): come back shortly.
  if (error instanceof HashingBusy) return { ...plain(503, 'auth.busy'), headers: { 'Retry-After': '2' } };
  if (error instanceof z.ZodError) {
    const refusal = validationError(error.issues, 'body');
    return { status: 422, detail: refusal.detail, headers: {}, code: refusal.code };
  }
  const httpLike = error as { status?: unknown; expose?: unknown; type?: unknown };
  if (error instanceof SyntaxError && httpLike.status === 400) return plain(400, 'http.invalid_json');
  if (typeof httpLike.status === 'number' && httpLike.status >= 400 && httpLike.status < 500 && httpLike.expose === true) {
    return plain(httpLike.status, clientErrorCode(httpLike.status, httpLike.type));
  }
  // A full disk is the operator's to fix, not a bug: say so (507), and keep the details for the log.
  if (storageFull(error)) return plain(507, 'storage.full');
  return plain(500, 'http.internal');
}

/** SQLite says SQLITE_FULL, the file system ENOSPC; either may arrive wrapped as another error's cause. */
function storageFull(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (code === 'SQLITE_FULL' || code === 'ENOSPC') return true;
  }
  return false;
}

function clientErrorCode(status: number, type: unknown): ErrorCode {
  if (type === 'entity.too.large' || status === 413) return 'http.body_too_large';
  if (type === 'entity.parse.failed') return 'http.invalid_json';
  if (status === 415) return 'http.unsupported_media_type';
  return 'http.bad_request';
}
