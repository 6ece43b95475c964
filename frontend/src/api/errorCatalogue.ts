/**
 * The spec's error catalogue (§8) as a pure mapping from what the server answered to what the user
 * reads. Texts come through `translate`, so the catalogue is the same in every language and the
 * words live in i18n.
 */

export type Translate = (key: CatalogueKey, params?: Record<string, string | number>) => string;

export type CatalogueKey =
  | 'errors.badRequest'
  | 'errors.unauthorized'
  | 'errors.unauthorizedMessage'
  | 'errors.paymentRequired'
  | 'errors.paymentRequiredMessage'
  | 'errors.forbidden'
  | 'errors.forbiddenMessage'
  | 'errors.notFound'
  | 'errors.validation'
  | 'errors.server'
  | 'errors.unknown'
  | 'errors.defaultMessage'
  | 'errors.noResponse'
  | 'errors.requestFailed';

export interface ErrorDescription {
  /** HTTP status, or 0 when no response arrived or the request failed before one could. */
  status: number;
  title: string;
  userMessage: string;
  /** The server's own detail text, kept so a screen can add it where the catalogue text is generic. */
  detail?: string;
  /** 422 messages by field name (the last string segment of `loc`), for inline form errors. */
  fieldErrors: Record<string, string>;
}

interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
}

function isValidationIssue(value: unknown): value is ValidationIssue {
  if (typeof value !== 'object' || value === null) return false;
  const { loc, msg } = value as { loc?: unknown; msg?: unknown };
  return Array.isArray(loc) && typeof msg === 'string';
}

const detailOf = (body: unknown): unknown => (typeof body === 'object' && body !== null ? (body as { detail?: unknown }).detail : undefined);

const textDetail = (body: unknown): string | undefined => {
  const detail = detailOf(body);
  return typeof detail === 'string' && detail.trim() !== '' ? detail : undefined;
};

export function describeHttpError(status: number, body: unknown, translate: Translate): ErrorDescription {
  const detail = textDetail(body);
  const fallback = detail ?? translate('errors.defaultMessage');
  const base = { status, ...(detail !== undefined && { detail }), fieldErrors: {} };
  switch (status) {
    case 400:
      return { ...base, title: translate('errors.badRequest'), userMessage: fallback };
    case 401:
      return { ...base, title: translate('errors.unauthorized'), userMessage: translate('errors.unauthorizedMessage') };
    case 402:
      return { ...base, title: translate('errors.paymentRequired'), userMessage: detail ?? translate('errors.paymentRequiredMessage') };
    case 403:
      return { ...base, title: translate('errors.forbidden'), userMessage: translate('errors.forbiddenMessage') };
    case 404:
      return { ...base, title: translate('errors.notFound'), userMessage: fallback };
    case 422: {
      const raw = detailOf(body);
      const issues = Array.isArray(raw) ? raw.filter(isValidationIssue) : [];
      if (issues.length === 0) return { ...base, title: translate('errors.validation'), userMessage: fallback };
      const fieldErrors: Record<string, string> = {};
      for (const issue of issues) {
        const field = [...issue.loc].reverse().find((part): part is string => typeof part === 'string');
        if (field !== undefined && !(field in fieldErrors)) fieldErrors[field] = issue.msg;
      }
      return {
        ...base,
        title: translate('errors.validation'),
        userMessage: issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; '),
        fieldErrors,
      };
    }
    case 500:
      return { ...base, title: translate('errors.server'), userMessage: fallback };
    default:
      return { ...base, title: translate('errors.unknown', { status }), userMessage: fallback };
  }
}

export function describeNoResponse(translate: Translate): ErrorDescription {
  const text = translate('errors.noResponse');
  return { status: 0, title: text, userMessage: text, fieldErrors: {} };
}

export function describeRequestFailure(message: string, translate: Translate): ErrorDescription {
  return { status: 0, title: translate('errors.badRequest'), userMessage: translate('errors.requestFailed', { message }), fieldErrors: {} };
}
