import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import type { Next, ParameterizedContext as Context } from 'koa';
import send from 'koa-send';

/** The paths that have a landing page of their own (frontend/vite.config.ts), and its name. */
const LANDINGS: Partial<Record<string, string>> = { '/': 'research', '/research': 'research', '/cli': 'cli' };

/**
 * Serves the built client. Hashed assets are cached for a year; any other GET that is not an API
 * or asset path gets index.html, so client-side routes survive a reload. The build writes `.br` and
 * `.gz` beside each text file, and koa-send picks one by Accept-Encoding: nothing is compressed per
 * request.
 */
export function staticFrontend(distDir: string) {
  const hasIndex = existsSync(`${distDir}/index.html`);
  // index.html that also preloads a landing screen's chunks and shows its text, in the reader's
  // language (frontend/vite.config.ts, LANDINGS; the client keeps the choice in the `app_language` cookie).
  const landing = (name: string, language: string | undefined) => {
    const page = language === 'en' ? `${name}.en.html` : `${name}.html`;
    return existsSync(`${distDir}/${page}`) ? page : 'index.html';
  };
  return async (ctx: Context, next: Next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path.startsWith('/backend') || ctx.path === '/healthz' || ctx.path === '/readyz' || ctx.path === '/metrics') return next();
    if (!hasIndex) {
      ctx.status = 503;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'The client has not been built: run `npm run build` (npm start does it).';
      return;
    }
    // The same URL has a body per encoding, so a shared cache must key on what the client accepts.
    ctx.vary('Accept-Encoding');
    if (ctx.path.startsWith('/assets/')) {
      try {
        await send(ctx, ctx.path, { root: distDir, immutable: true, maxage: 365 * 24 * 3600 * 1000 });
        return;
      } catch {
        ctx.status = 404;
        return;
      }
    }
    if (extname(ctx.path) !== '' && ctx.path !== '/index.html') {
      try {
        await send(ctx, ctx.path, { root: distDir });
        return;
      } catch {
        /* unknown files fall through to the app, which shows its own not-found page */
      }
    }
    ctx.set('Cache-Control', 'no-cache');
    const landingName = LANDINGS[ctx.path];
    // One URL, a body per language: a shared cache keys on the cookie too.
    if (landingName) ctx.vary('Cookie');
    await send(ctx, landingName ? landing(landingName, ctx.cookies.get('app_language')) : 'index.html', { root: distDir });
  };
}
