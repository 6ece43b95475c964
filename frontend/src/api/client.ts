import { i18n } from '../i18n/index.ts';
import { describeHttpError, describeNoResponse, describeRequestFailure, type ErrorDescription, type Translate } from './errorCatalogue.ts';
import { browserTokens } from './token.ts';

export const API_BASE = '/backend';
export const REQUEST_TIMEOUT_MS = 36_000_000;

export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly userMessage: string;
  readonly detail: string | undefined;
  readonly fieldErrors: Readonly<Record<string, string>>;

  constructor(description: ErrorDescription) {
    super(description.userMessage);
    this.name = 'ApiError';
    this.status = description.status;
    this.title = description.title;
    this.userMessage = description.userMessage;
    this.detail = description.detail;
    this.fieldErrors = description.fieldErrors;
  }
}

// Texts are resolved when the error happens, so they follow the language the user has chosen.
// i18next types the options for the union of keys (wanting every placeholder of every key); each call
// of the catalogue passes exactly what its own key interpolates.
const translate: Translate = (key, params) => i18n.t(key, params as { status: number; message: string });

/** Screens catch whatever a call threw; anything that is not already an ApiError is an "other failure". */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(describeRequestFailure(error instanceof Error ? error.message : String(error), translate));
}

const unauthorizedListeners = new Set<() => void>();

/** The auth store listens here, so a 401 from any call signs the user out, not only from auth calls. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  form?: Record<string, string>;
  signal?: AbortSignal;
}

function urlFor(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return `${API_BASE}${path}${search === '' ? '' : `?${search}`}`;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  return (response.headers.get('Content-Type') ?? '').includes('json') ? JSON.parse(text) : text;
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers = new Headers({ Accept: 'application/json' });
  const token = browserTokens.get();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let body: BodyInit | undefined;
  if (options.form !== undefined) body = new URLSearchParams(options.form);
  else if (options.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.json);
  }
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

  let response: Response;
  try {
    response = await fetch(urlFor(path, options.query), { method, headers, body, signal });
  } catch (error) {
    // A caller that cancelled does not want an error message, it wants to stop.
    if (options.signal?.aborted) throw error;
    throw new ApiError(describeNoResponse(translate));
  }

  if (!response.ok) {
    const payload = await readBody(response).catch(() => undefined);
    if (response.status === 401) {
      browserTokens.clear();
      for (const listener of unauthorizedListeners) listener();
    }
    throw new ApiError(describeHttpError(response.status, payload, translate));
  }
  try {
    return (await readBody(response)) as T;
  } catch (error) {
    throw toApiError(error);
  }
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'json' | 'form'>) => request<T>('GET', path, options),
  post: <T>(path: string, options?: RequestOptions) => request<T>('POST', path, options),
  put: <T>(path: string, options?: RequestOptions) => request<T>('PUT', path, options),
  patch: <T>(path: string, options?: RequestOptions) => request<T>('PATCH', path, options),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
