import type { ParameterizedContext as Context } from 'koa';
import type { z } from 'zod';
import { validationError } from './errors.ts';

/** Validates the request body; a mismatch is a 422 listing each field, and nothing runs. */
export function parseBody<T extends z.ZodType>(ctx: Context, schema: T): z.infer<T> {
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
