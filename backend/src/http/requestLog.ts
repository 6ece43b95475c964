import { randomUUID } from 'node:crypto';
import type { ParameterizedContext as Context } from 'koa';
import type { Logger } from '@scriptorium/infra/log';
import { httpDuration } from './health.ts';

/*
 * What every request is given and leaves behind, whichever path answers it: koa's middleware stack,
 * or a route answered before it (`fastHistory.ts`), which calls these same functions.
 */

/** The request's id (the caller's `X-Request-Id`, else a new one), echoed back, and its logger. */
export function beginRequest(ctx: Context, log: Logger): void {
  const requestId = ctx.get('x-request-id') || randomUUID();
  ctx.state.requestId = requestId;
  ctx.state.log = log.child({ requestId });
  ctx.set('X-Request-Id', requestId);
}

/** The request's duration in the metrics, by its route's pattern, and its log line (for `/backend`). */
export function endRequest(ctx: Context, started: bigint): void {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? (ctx.path.startsWith('/backend') ? 'unmatched' : 'static');
  httpDuration.observe({ method: ctx.method, route, status: String(ctx.status) }, seconds);
  if (ctx.path.startsWith('/backend')) (ctx.state.log as Logger).info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(seconds * 1000) }, 'request');
}

/** What no `/backend` answer may be kept as by a cache along the way. */
export function setApiCaching(ctx: Context): void {
  if (ctx.path.startsWith('/backend')) ctx.set('Cache-Control', 'no-store');
}
