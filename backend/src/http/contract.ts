import type { Middleware } from 'koa';
import type { z } from 'zod';

/** Who may call a route: anyone, a signed-in active user, an administrator, an auditor or administrator, or anyone with more shown to a signed-in user. */
export type Access = 'public' | 'user' | 'admin' | 'auditor' | 'optional';

/** What a route takes and answers, declared beside it so the OpenAPI document cannot drift from the router. */
export interface Contract {
  summary?: string;
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  /** The JSON body, the schema the handler parses with. */
  body?: z.ZodType;
  /** The body may also come as an HTML form (the sign-in forms), or only as one (`'only'`: OAuth's token and revocation requests). */
  form?: boolean | 'only';
  /** Fields of a multipart upload; `file` is the uploaded file. */
  multipart?: z.ZodType;
  /**
   * Every success status the handler really sends, each with its body. A route without them is
   * counted as undescribed (tests/http/openapi.test.ts) and the document says so.
   */
  responses?: Partial<Record<SuccessStatus, Reply | Reply[]>>;
  /** Statuses the handler refuses with beyond what access and schemas imply. */
  refusals?: number[];
  /**
   * The shape refusals take: OpenAI's `{error: {…}}`, a bad body as 400 (the OpenAI-compatible
   * routes); RFC 6749's `{error, error_description}` (the OAuth token and revocation endpoints);
   * the api's own `{detail, code}` otherwise.
   */
  errors?: 'openai' | 'oauth';
}

export type SuccessStatus = 200 | 201 | 202 | 204;

/**
 * A success body: JSON by its zod schema (the one the client infers its type from); another media
 * type (`{ type }`: a PDF, a page, a download, or one of several; `application/octet-stream` for a
 * stored file of whatever type it was uploaded as; an event or NDJSON stream with the schema of
 * each event in `item`); or `null`, no body. A list: the status comes in any of these media types
 * (a completion as JSON, or as an event stream when the request asks to stream).
 */
export type Reply = z.ZodType | { type: string | string[]; item?: z.ZodType; description?: string } | null;

const CONTRACT = Symbol('contract');
type Declared = Middleware & { [CONTRACT]: Contract };

/** A pass-through middleware carrying the route's contract, so walking the router finds it on the layer. */
export function contract(declared: Contract): Middleware {
  const middleware: Middleware = (_ctx, next) => next();
  return Object.assign(middleware, { [CONTRACT]: declared });
}

export const contractOf = (layer: { stack: unknown[] }): Contract | undefined =>
  (layer.stack.find((middleware) => typeof middleware === 'function' && CONTRACT in middleware) as Declared | undefined)?.[CONTRACT];
