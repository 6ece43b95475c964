import { timingSafeEqual } from 'node:crypto';
import type { Next, ParameterizedContext as Context } from 'koa';
import type { Config } from '@scriptorium/infra/config/config';
import { bearerToken } from './authenticate.ts';
import { httpError } from './errors.ts';

/** Where generated HTML runs: a page of its own, never inside ours, so our policy can stay strict. */
export const ARTIFACT_FRAME_PATH = '/backend/artifact-frame';

/**
 * Our pages run only our own scripts. Styles may be inline (components set them); images may come
 * from anywhere over HTTPS (reports cite pictures). Nothing may frame us; our only frame is the
 * artifact frame, itself on our origin.
 */
const APP_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * A generated page may run its own inline scripts and load what it likes over HTTPS, but only in
 * an opaque origin (the sandbox, also applied when the frame is opened directly), so it reaches
 * neither our cookies, storage nor API; and only our own pages may frame it.
 */
const ARTIFACT_POLICY = [
  'sandbox allow-scripts allow-popups allow-modals allow-forms',
  "default-src 'none'",
  "script-src 'unsafe-inline' 'unsafe-eval' https: data: blob:",
  "style-src 'unsafe-inline' https: data:",
  'img-src https: data: blob:',
  'font-src https: data:',
  'media-src https: data: blob:',
  'connect-src https:',
  "frame-ancestors 'self'",
].join('; ');

/** The frame's page: it takes one document from the page that framed it, and becomes it. */
const ARTIFACT_FRAME = `<!doctype html><meta charset="utf-8"><script>
var written = false;
addEventListener('message', function (event) {
  if (written || event.source !== parent || typeof event.data !== 'string') return;
  written = true;
  document.open();
  document.write(event.data);
  document.close();
});
</script>`;

/**
 * The policy headers of every response, whichever path answers it (koa's stack, or a route answered
 * before it). HSTS follows `ctx.secure`, which believes X-Forwarded-Proto only when the app trusts its
 * proxy (TRUST_PROXY).
 */
export function setSecurityHeaders(ctx: Context): void {
  const frame = ctx.path === ARTIFACT_FRAME_PATH;
  ctx.set({
    'Content-Security-Policy': frame ? ARTIFACT_POLICY : APP_POLICY,
    'X-Frame-Options': frame ? 'SAMEORIGIN' : 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  });
  if (ctx.secure) ctx.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
}

export function securityHeaders() {
  return async (ctx: Context, next: Next) => {
    setSecurityHeaders(ctx);
    if (ctx.path === ARTIFACT_FRAME_PATH && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = ARTIFACT_FRAME;
      return;
    }
    await next();
  };
}

const sameToken = (given: string | undefined, expected: string | undefined) =>
  given !== undefined && expected !== undefined && given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));

/** `/metrics` tells how the service runs: only for the configured addresses, or whoever holds the metrics token. */
export function metricsAccess(config: Pick<Config, 'METRICS_ALLOW' | 'METRICS_TOKEN'>) {
  return async (ctx: Context, next: Next) => {
    const address = ctx.ip.replace(/^::ffff:/, '');
    if (!config.METRICS_ALLOW.includes(address) && !sameToken(bearerToken(ctx), config.METRICS_TOKEN)) throw httpError(403, 'auth.forbidden');
    await next();
  };
}
