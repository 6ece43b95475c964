/**
 * The spec's error catalogue (§8) as a pure mapping from what the server answered to what the user
 * reads. Texts come through `translate`, so the catalogue is the same in every language and the
 * words live in i18n. A refusal's own text is rendered from its `code` and `params` by `render`, so it
 * reads in the user's language; the server's Chinese detail stands only for a code the client does not know.
 */

export type Translate = (key: CatalogueKey, params?: Record<string, string | number>) => string;

/** The text of a server refusal code in the user's language, or undefined for a code this client does not know. */
export type RenderCode = (code: string, params: Record<string, string | number>) => string | undefined;

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
  /** The refusal's own text (by code, else the server's detail), kept so a screen can add it where the catalogue text is generic. */
  detail?: string;
  /** 422 messages by field name (the last string segment of `loc`), for inline form errors. */
  fieldErrors: Record<string, string>;
  /** The server's refusal code, when it gave one. */
  code?: string;
  /** The refusal's parameters (a countdown's seconds, a limit), for a screen that acts on them. */
  params?: Record<string, string | number>;
}

interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  code?: unknown;
  params?: unknown;
}

function isValidationIssue(value: unknown): value is ValidationIssue {
  if (typeof value !== 'object' || value === null) return false;
  const { loc, msg } = value as { loc?: unknown; msg?: unknown };
  return Array.isArray(loc) && typeof msg === 'string';
}

const detailOf = (body: unknown): unknown => (typeof body === 'object' && body !== null ? (body as { detail?: unknown }).detail : undefined);

const isParams = (value: unknown): value is Record<string, string | number> =>
  typeof value === 'object' && value !== null && Object.values(value).every((item) => typeof item === 'string' || typeof item === 'number');

/** `{code, params}` of a body or an issue, rendered; undefined when there is none or the code is unknown. */
function rendered(value: unknown, render: RenderCode): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { code, params } = value as { code?: unknown; params?: unknown };
  return typeof code === 'string' ? render(code, isParams(params) ? params : {}) : undefined;
}

/** A refusal the socket or a stream item carried: its code in the reader's language, else its text as sent. */
export const refusalText = (refusal: { error_message?: string | undefined; code?: string | undefined; params?: unknown }, render: RenderCode): string =>
  rendered(refusal, render) ?? refusal.error_message ?? '';

const textDetail = (body: unknown, render: RenderCode): string | undefined => {
  const detail = detailOf(body);
  return typeof detail === 'string' && detail.trim() !== '' ? (rendered(body, render) ?? detail) : undefined;
};

const codeOf = (body: unknown): string | undefined => {
  const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
};

export function describeHttpError(status: number, body: unknown, translate: Translate, render: RenderCode): ErrorDescription {
  const detail = textDetail(body, render);
  const code = codeOf(body);
  const params = typeof body === 'object' && body !== null ? (body as { params?: unknown }).params : undefined;
  const fallback = detail ?? translate('errors.defaultMessage');
  const base = { status, ...(detail !== undefined && { detail }), ...(code !== undefined && { code }), ...(isParams(params) && { params }), fieldErrors: {} };
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
      const messages = issues.map((issue) => ({ loc: issue.loc, msg: rendered(issue, render) ?? issue.msg }));
      for (const { loc, msg } of messages) {
        const field = [...loc].reverse().find((part): part is string => typeof part === 'string');
        if (field !== undefined && !(field in fieldErrors)) fieldErrors[field] = msg;
      }
      return {
        ...base,
        title: translate('errors.validation'),
        userMessage: messages.map(({ loc, msg }) => `${loc.join('.')}: ${msg}`).join('; '),
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
