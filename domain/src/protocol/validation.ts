import { z } from 'zod';
import { coded, errorText, fillPlaceholders, isErrorCode, type CodedError, type ErrorCode, ERROR_TEXTS } from './errors.ts';

/** One item of a 422 body, shaped as FastAPI's (`loc`, `msg`, `type`) plus the code a client renders. */
export interface ValidationIssue extends CodedError {
  loc: Array<string | number>;
  /** The Chinese text, as the catalogue gives it for `code` and `params`. */
  msg: string;
  /** zod's issue code, kept for clients that read FastAPI-style bodies. */
  type: string;
}

type Issue = z.core.$ZodIssue | z.core.$ZodRawIssue;
type Params = Record<string, string | number>;

const REQUIRED = errorText('validation.required');
const bound = (value: number | bigint | Date | unknown): string | number => (typeof value === 'number' ? value : String(value));
const BY_ORIGIN: Record<string, 'string' | 'array'> = { string: 'string', array: 'array', set: 'array' };

/** The catalogue code and params of a zod issue, whichever schema raised it. */
function genericCode(issue: Issue, missing: boolean): { code: ErrorCode; params: Params } {
  switch (issue.code) {
    case 'invalid_type':
      return missing ? { code: 'validation.required', params: {} } : { code: 'validation.invalid_type', params: { expected: issue.expected } };
    case 'too_small': {
      const min = bound(issue.minimum);
      if (issue.inclusive === false) return { code: 'validation.too_small_exclusive', params: { min } };
      const origin = BY_ORIGIN[issue.origin];
      return { code: origin ? `validation.too_small_${origin}` : 'validation.too_small', params: { min } };
    }
    case 'too_big': {
      const max = bound(issue.maximum);
      if (issue.inclusive === false) return { code: 'validation.too_big_exclusive', params: { max } };
      const origin = BY_ORIGIN[issue.origin];
      return { code: origin ? `validation.too_big_${origin}` : 'validation.too_big', params: { max } };
    }
    case 'invalid_value':
      return { code: 'validation.invalid_value', params: { values: issue.values.map(String).join('、') } };
    case 'invalid_format':
      return { code: 'validation.invalid_format', params: { format: issue.format } };
    case 'not_multiple_of':
      return { code: 'validation.not_multiple_of', params: { divisor: bound(issue.divisor) } };
    case 'unrecognized_keys':
      return { code: 'validation.unrecognized_keys', params: { keys: issue.keys.join('、') } };
    case 'invalid_union':
      return { code: 'validation.invalid_union', params: {} };
    case 'invalid_key':
      return { code: 'validation.invalid_key', params: {} };
    case 'invalid_element':
      return { code: 'validation.invalid_element', params: {} };
    default:
      return { code: 'validation.custom', params: {} };
  }
}

/**
 * zod's own texts are English; every issue a schema does not word itself gets the catalogue's Chinese
 * instead, so no English default can reach a user, whichever route or socket handler parsed.
 */
z.config({
  customError: (issue) => {
    const { code, params } = genericCode(issue, issue.code === 'invalid_type' && issue.input === undefined);
    return fillPlaceholders(ERROR_TEXTS[code].zh, params);
  },
});

/**
 * A schema words a refusal as a catalogue code (`.max(200, 'notes.name_too_long')`); its params are
 * the issue's own bounds, so the text and the check share one number. A schema message that is not a
 * code is kept as it is, under the issue's generic code.
 */
export function issueCode(issue: z.core.$ZodIssue): CodedError & { msg: string } {
  const generic = genericCode(issue, issue.code === 'invalid_type' && issue.message === REQUIRED);
  if (!isErrorCode(issue.message)) return { ...coded(generic.code, generic.params), msg: issue.message };
  const text = ERROR_TEXTS[issue.message].zh;
  // A bound the text does not name (a "请输入…" also raised for a wrong type) is noise to a client.
  const params = Object.fromEntries(Object.entries(generic.params).filter(([name]) => text.includes(`{${name}}`)));
  return { ...coded(issue.message, params), msg: fillPlaceholders(text, params) };
}

export const validationIssue = (issue: z.core.$ZodIssue, location: string): ValidationIssue => {
  const { msg, ...rest } = issueCode(issue);
  return { loc: [location, ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))], msg, type: issue.code, ...rest };
};

/** Names a catalogue code as a schema's message, so a typo is a type error rather than a raw string on the wire. */
export const says = (code: ErrorCode): ErrorCode => code;
