import { Stream } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import compress from 'koa-compress';
import type { Middleware } from 'koa';

/** JSON bodies this size or larger are compressed; below it the headers and the work cost more than they save. */
export const COMPRESS_MIN_BYTES = 1024;

/** koa-compress's own default, named: a history page is compressed whenever it changed since it was last read. */
const BROTLI_PARAMS = { [constants.BROTLI_PARAM_QUALITY]: 4 };

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\b/i;

/**
 * Compresses JSON responses of 1 KB or more, brotli or gzip as the request accepts. Only JSON whose
 * length is known: a streamed body (server-sent events, an export) is sent as it is written, never
 * held in a compressor's buffer. A route that sends bytes it encoded itself (`sendEncodedJson`) is
 * left alone.
 */
export function compressJson(): Middleware {
  const compressor = compress({
    filter: (type) => JSON_TYPE.test(type),
    threshold: (_type, size) => (size === undefined ? Number.POSITIVE_INFINITY : COMPRESS_MIN_BYTES),
    encodingPreference: ['br', 'gzip', 'identity'],
    br: { params: BROTLI_PARAMS },
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

export type JsonEncoding = 'br' | 'gzip' | 'identity';

/** What `compressJson` would choose for an `Accept-Encoding` header: brotli, else gzip, else none. */
export function acceptedEncoding(header: string | undefined): JsonEncoding {
  if (!header) return 'identity';
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    const weight = params.find((param) => param.startsWith('q='));
    weights.set(name, weight === undefined ? 1 : Number(weight.slice(2)) || 0);
  }
  const accepts = (encoding: string) => (weights.get(encoding) ?? weights.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  return accepts('gzip') ? 'gzip' : 'identity';
}

export interface EncodedJson {
  bytes: Buffer;
  encoding: JsonEncoding;
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** JSON text as `compressJson` would send it: compressed in `encoding` from 1 KB on, as it is below. */
export async function encodeJson(text: string, encoding: JsonEncoding): Promise<EncodedJson> {
  const plain = Buffer.from(text, 'utf8');
  if (encoding === 'identity' || plain.length < COMPRESS_MIN_BYTES) return { bytes: plain, encoding: 'identity' };
  const bytes = encoding === 'br' ? await brotli(plain, { params: { ...BROTLI_PARAMS, [constants.BROTLI_PARAM_SIZE_HINT]: plain.length } }) : await gzipped(plain);
  return { bytes, encoding };
}

/** Sends JSON encoded by `encodeJson` as it is (`compressJson` does not touch it). */
export function sendEncodedJson(ctx: Parameters<Middleware>[0], json: EncodedJson): void {
  ctx.compress = false;
  // The bytes were chosen by the request's Accept-Encoding (koa-compress says so too, for what it compresses).
  ctx.vary('Accept-Encoding');
  ctx.type = 'application/json';
  if (json.encoding !== 'identity') ctx.set('Content-Encoding', json.encoding);
  ctx.body = json.bytes;
}
