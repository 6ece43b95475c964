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
  /** Every success status the handler really sends, each with its body. */
  responses: Responses;
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
export type Responses = Partial<Record<SuccessStatus, Reply | readonly Reply[]>>;

/**
 * A success body: JSON by its zod schema (the one the client infers its type from); another media
 * type (`{ type }`: a PDF, a page, a download, or one of several; `application/octet-stream` for a
 * stored file of whatever type it was uploaded as; an event or NDJSON stream with the schema of
 * each event in `item`); or `null`, no body. A list: the status comes in any of these media types
 * (a completion as JSON, or as an event stream when the request asks to stream).
 */
export type Reply = z.ZodType | { type: string | string[]; item?: z.ZodType; description?: string } | null;

/** The body a declared reply takes: what its schema outputs; nothing for `null`; a stream or file is the handler's own. */
type BodyOf<R> = R extends z.ZodType ? z.output<R> : R extends readonly (infer Each)[] ? BodyOf<Each> : R extends null ? never : unknown;

const CONTRACT = Symbol('contract');

/** A route's contract as middleware: it passes every request on, and answers for its handler. */
export interface Declared<R extends Responses> extends Middleware {
  [CONTRACT]: Contract;
  /**
   * Answers `status` with `body`, typed by the schema the contract declares for that status, so a
   * handler cannot build a body its document does not describe (the HTTP suites check the values).
   */
  reply<S extends keyof R & SuccessStatus>(ctx: { status: number; body: unknown }, status: S, ...body: R[S] extends null ? [] : [BodyOf<R[S]>]): void;
}

/** A pass-through middleware carrying the route's contract, so walking the router finds it on the layer. */
export function contract<const R extends Responses>(declared: Omit<Contract, 'responses'> & { responses: R }): Declared<R> {
  const middleware: Middleware = (_ctx, next) => next();
  return Object.assign(middleware, {
    [CONTRACT]: declared,
    reply(ctx: { status: number; body: unknown }, status: SuccessStatus, ...body: unknown[]) {
      ctx.status = status;
      if (body.length > 0) ctx.body = body[0];
    },
  });
}

export const contractOf = (layer: { stack: unknown[] }): Contract | undefined =>
  (layer.stack.find((middleware) => typeof middleware === 'function' && CONTRACT in middleware) as Declared<Responses> | undefined)?.[CONTRACT];
