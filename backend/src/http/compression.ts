import { Stream } from 'node:stream';
import compress from 'koa-compress';
import type { Middleware } from 'koa';

/** JSON bodies this size or larger are compressed; below it the headers and the work cost more than they save. */
export const COMPRESS_MIN_BYTES = 1024;

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\b/i;

/**
 * Compresses JSON responses of 1 KB or more, brotli or gzip as the request accepts (brotli at
 * koa-compress's quality 4: a history page is compressed on every read). Only JSON whose length is
 * known: a streamed body (server-sent events, an export) is sent as it is written, never held in a
 * compressor's buffer.
 */
export function compressJson(): Middleware {
  const compressor = compress({
    filter: (type) => JSON_TYPE.test(type),
    threshold: (_type, size) => (size === undefined ? Number.POSITIVE_INFINITY : COMPRESS_MIN_BYTES),
    encodingPreference: ['br', 'gzip', 'identity'],
    deflate: false,
    zstd: false,
  });
  // A body left as an object is serialised once, here: koa would do it for its length and
  // koa-compress again for the bytes. The Content-Type it set stays.
  const serialised: Middleware = async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (body !== null && typeof body === 'object' && !Buffer.isBuffer(body) && !(body instanceof Stream) && JSON_TYPE.test(ctx.type)) ctx.body = JSON.stringify(body);
  };
  return (ctx, next) => compressor(ctx, () => serialised(ctx, next));
}
