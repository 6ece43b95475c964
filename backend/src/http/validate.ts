import type { ParameterizedContext as Context } from 'koa';
import type { z } from 'zod';
import { httpError, validationError } from './errors.ts';

/**
 * Validates the request body; a mismatch is a 422 listing each field, and nothing runs. A body of
 * another type than the route takes is a 415, not read as if it were JSON.
 */
export function parseBody<T extends z.ZodType>(ctx: Context, schema: T, accepts: { form?: boolean } = {}): z.infer<T> {
  if (ctx.is(accepts.form ? ['json', 'urlencoded'] : ['json']) === false) throw httpError(415, 'http.unsupported_media_type');
  const result = schema.safeParse((ctx.request as { body?: unknown }).body ?? {});
  if (!result.success) throw validationError(result.error.issues, 'body');
  return result.data;
}

export function parseQuery<T extends z.ZodType>(ctx: Context, schema: T): z.infer<T> {
  const result = schema.safeParse(ctx.query);
  if (!result.success) throw validationError(result.error.issues, 'query');
  return result.data;
}

export function parseParams<T extends z.ZodType>(params: unknown, schema: T): z.infer<T> {
  const result = schema.safeParse(params);
  if (!result.success) throw validationError(result.error.issues, 'path');
  return result.data;
}
