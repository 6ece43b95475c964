import { z } from 'zod';
import type { ValidationIssue } from '@scriptorium/domain/protocol/validation';
import type { Refusal } from './errors.ts';

/**
 * The OpenAI-compatible api (`/backend/engineer/v1/…`): OpenAI's clients read a refusal from
 * `{error: {message, type, code, param}}` and show `error.message`, so these routes answer in that
 * shape. The status stays the catalogue's (402 for a spent budget, as the spec says), except that a
 * body the schema refuses is OpenAI's 400, naming the parameter, rather than the rest of the api's 422.
 */
export const OPENAI_PREFIX = '/backend/engineer/v1/';

export const openAiErrorBody = z
  .object({
    error: z.object({
      message: z.string(),
      type: z.string(),
      code: z.string().nullable(),
      param: z.string().nullable(),
    }),
  })
  .meta({ description: "OpenAI's error shape: the Chinese text of the catalogue in `message`, the parameter at fault in `param`" });

/** OpenAI's own codes where its clients look for one (an invalid key, spent quota, an unknown model); the catalogue's code otherwise. */
const OPENAI_CODES: Record<string, string> = {
  'auth.unauthenticated': 'invalid_api_key',
  'budget.exhausted': 'insufficient_quota',
  'budget.busy': 'rate_limit_exceeded',
  'engineer.model_not_found': 'model_not_found',
};

const typeOf = (status: number): string => {
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'insufficient_quota';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
};

/** `messages.[0].content`, as OpenAI names a parameter inside the body. */
export const paramOf = (loc: ReadonlyArray<string | number>): string | null => {
  const path = loc.slice(1);
  return path.length === 0 ? null : path.map((part) => (typeof part === 'number' ? `[${part}]` : part)).join('.');
};

export function openAiRefusal(refusal: Refusal): { status: number; body: z.infer<typeof openAiErrorBody> } {
  if (Array.isArray(refusal.detail)) {
    const issues: ValidationIssue[] = refusal.detail;
    const first = issues[0];
    const message = issues.map((issue) => [paramOf(issue.loc), issue.msg].filter(Boolean).join(': ')).join('; ');
    return { status: 400, body: { error: { message, type: 'invalid_request_error', code: first?.code ?? refusal.code, param: first ? paramOf(first.loc) : null } } };
  }
  const status = refusal.status === 422 ? 400 : refusal.status;
  return { status, body: { error: { message: refusal.detail, type: typeOf(status), code: OPENAI_CODES[refusal.code] ?? refusal.code, param: null } } };
}
