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
  /** The body may also come as an HTML form (the sign-in forms). */
  form?: boolean;
  /** Fields of a multipart upload; `file` is the uploaded file. */
  multipart?: z.ZodType;
  /** The success body when it is JSON and worth describing. */
  response?: z.ZodType;
  /** The success body's media type when it is not JSON (a PDF, a download). */
  produces?: string;
  /** Statuses the handler refuses with beyond what access and schemas imply. */
  refusals?: number[];
  /** Refusals in OpenAI's `{error: {…}}` shape, a bad body as 400 (the OpenAI-compatible routes); the api's own shape otherwise. */
  errors?: 'openai';
}

const CONTRACT = Symbol('contract');
type Declared = Middleware & { [CONTRACT]: Contract };

/** A pass-through middleware carrying the route's contract, so walking the router finds it on the layer. */
export function contract(declared: Contract): Middleware {
  const middleware: Middleware = (_ctx, next) => next();
  return Object.assign(middleware, { [CONTRACT]: declared });
}

export const contractOf = (layer: { stack: unknown[] }): Contract | undefined =>
  (layer.stack.find((middleware) => typeof middleware === 'function' && CONTRACT in middleware) as Declared | undefined)?.[CONTRACT];
