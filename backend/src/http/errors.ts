import { DomainError, type DomainErrorKind } from '@scriptorium/infra/eventsourcing/decider';
import type { Next, ParameterizedContext as Context } from 'koa';
import { z } from 'zod';

/** One item of a 422 body, shaped as FastAPI's so the client's catalogue can join `loc` and `msg`. */
export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : 'validation failed');
    this.name = 'HttpError';
  }
}

const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid: 422,
  not_found: 404,
  forbidden: 403,
  conflict: 409,
  unauthorized: 401,
  budget_exhausted: 402,
};

export const validationError = (issues: z.core.$ZodIssue[], location: 'body' | 'query' | 'path'): HttpError =>
  new HttpError(
    422,
    issues.map((issue) => ({ loc: [location, ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))], msg: issue.message, type: issue.code })),
  );

/** Turns every failure into `{detail}` with a catalogue status; internals never reach the client. */
export async function errorMiddleware(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
    if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/backend')) {
      ctx.status = 404;
      ctx.body = { detail: '资源未找到' };
    }
  } catch (error) {
    const { status, detail, headers } = toResponse(error);
    if (status >= 500) ctx.state.log?.error({ err: error }, 'request failed');
    else ctx.state.log?.info({ status, detail }, 'request refused');
    ctx.status = status;
    ctx.set(headers);
    ctx.body = { detail };
  }
}

function toResponse(error: unknown): { status: number; detail: string | ValidationIssue[]; headers: Record<string, string> } {
  if (error instanceof HttpError) return { status: error.status, detail: error.detail, headers: error.headers };
  if (error instanceof DomainError) {
    const status = STATUS_OF_KIND[error.kind];
    if (status === 422) return { status, detail: [{ loc: ['body', ...(error.field ? [error.field] : [])], msg: error.message, type: 'value_error' }], headers: {} };
    return { status, detail: error.message, headers: {} };
  }
  if (error instanceof z.ZodError) return { status: 422, detail: validationError(error.issues, 'body').detail, headers: {} };
  const httpLike = error as { status?: unknown; expose?: unknown; type?: unknown };
  if (error instanceof SyntaxError && httpLike.status === 400) return { status: 400, detail: '请求体不是有效的 JSON', headers: {} };
  if (typeof httpLike.status === 'number' && httpLike.status >= 400 && httpLike.status < 500 && httpLike.expose === true) {
    return { status: httpLike.status, detail: clientErrorText(httpLike.status, httpLike.type), headers: {} };
  }
  return { status: 500, detail: '服务器内部错误', headers: {} };
}

function clientErrorText(status: number, type: unknown): string {
  if (type === 'entity.too.large' || status === 413) return '请求体过大';
  if (type === 'entity.parse.failed') return '请求体不是有效的 JSON';
  if (status === 415) return '不支持的请求内容类型';
  return '请求错误';
}
