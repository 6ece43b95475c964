import { i18n, refusalInReadersLanguage } from '../i18n/index.ts';
import { describeHttpError, describeNoResponse, describeRequestFailure, refusalText, type ErrorDescription, type RenderCode, type Translate } from './errorCatalogue.ts';
import { attachmentName } from './disposition.ts';
import { browserTokens, tokenSettled } from './token.ts';

export const API_BASE = '/backend';
export const REQUEST_TIMEOUT_MS = 36_000_000;

export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly userMessage: string;
  readonly detail: string | undefined;
  readonly fieldErrors: Readonly<Record<string, string>>;
  readonly code: string | undefined;
  readonly params: Readonly<Record<string, string | number>> | undefined;

  constructor(description: ErrorDescription) {
    super(description.userMessage);
    this.name = 'ApiError';
    this.status = description.status;
    this.title = description.title;
    this.userMessage = description.userMessage;
    this.detail = description.detail;
    this.fieldErrors = description.fieldErrors;
    this.code = description.code;
    this.params = description.params;
  }
}

// Texts are resolved when the error happens, so they follow the language the user has chosen.
// i18next types the options for the union of keys (wanting every placeholder of every key); each call
// of the catalogue passes exactly what its own key interpolates.
export const translate: Translate = (key, params) => i18n.t(key, params as { status: number; message: string });

/** A refusal code in the user's language, from the kernel catalogue (`refusalInReadersLanguage`). */
export const renderCode: RenderCode = refusalInReadersLanguage;

export const refusalMessage = (refusal: Parameters<typeof refusalText>[0]): string => refusalText(refusal, renderCode);

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

/**
 * The server no longer accepts `used`, the token a request or socket carried (a 401, or the socket
 * closed with 4401): forget it and sign out, unless this browser holds another token by now (a
 * password change hands a new one while its other sign-ins, this one's old token among them, end).
 */
export function signedOutByServer(used: string | null): void {
  if (used !== browserTokens.get()) return;
  browserTokens.clear();
  for (const listener of unauthorizedListeners) listener();
}

const inactiveListeners = new Set<() => void>();

/** The auth store listens here: the account was deactivated while signed in, so it reads the user again. */
export function onAccountInactive(listener: () => void): () => void {
  inactiveListeners.add(listener);
  return () => inactiveListeners.delete(listener);
}

/** The sign-in holds but the account is inactive (a 403 saying so, or the socket closed with 4423): the token is kept. */
export function accountInactiveByServer(): void {
  for (const listener of inactiveListeners) listener();
}

/**
 * `B` is the JSON body's type and `Q` the query's, the route's request and query schemas' input from
 * the protocol (`api.post<Reply, Body>(path, { json })`, `api.get<Reply, Query>(path, { query })`):
 * named, so what a call sends is checked against the schema the server parses it with (ESLint's
 * `scriptorium/request-type-from-protocol` asks for them); unnamed, `json` and `query` cannot be given.
 */
export interface RequestOptions<B = never, Q extends object = never> {
  query?: Q;
  json?: B;
  form?: Record<string, string>;
  /** A multipart upload, its fields as the route's `multipart` schema names them. */
  multipart?: FormData;
  signal?: AbortSignal;
  /** Where the path starts: the API (`/backend`) unless a document lives at the site's root (RFC 8414's metadata). */
  base?: string;
}

type NoBody<Q extends object> = Omit<RequestOptions<never, Q>, 'json' | 'form' | 'multipart'>;

/**
 * The one place a query becomes a URL's search: each field the schema names, left out when undefined,
 * a number or a flag as its text (the server's schema coerces it back).
 */
export function searchOf(query: object | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) params.set(key, String(value));
  const search = params.toString();
  return search === '' ? '' : `?${search}`;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  // A word, so that line-delimited JSON (application/x-ndjson, an export) stays text.
  return /\bjson\b/.test(response.headers.get('Content-Type') ?? '') ? JSON.parse(text) : text;
}

/** Sends a call and answers its response once it succeeded; a failure throws the catalogue's `ApiError`. */
async function send<B, Q extends object>(method: string, path: string, options: RequestOptions<B, Q>): Promise<Response> {
  const headers = new Headers({ Accept: 'application/json' });
  const token = browserTokens.get();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let body: BodyInit | undefined;
  if (options.form !== undefined) body = new URLSearchParams(options.form);
  else if (options.multipart !== undefined) body = options.multipart;
  else if (options.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.json);
  }
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

  let response: Response;
  try {
    response = await fetch(`${options.base ?? API_BASE}${path}${searchOf(options.query)}`, { method, headers, body, signal });
  } catch (error) {
    // A caller that cancelled does not want an error message, it wants to stop.
    if (options.signal?.aborted) throw error;
    throw new ApiError(describeNoResponse(translate));
  }

  if (!response.ok) {
    const payload = await readBody(response).catch(() => undefined);
    if (response.status === 401) await tokenSettled();
    if (response.status === 401 && token !== browserTokens.get() && browserTokens.get() !== null) return send(method, path, options);
    if (response.status === 401) signedOutByServer(token);
    if (response.status === 403 && (payload as { code?: unknown } | undefined)?.code === 'auth.account_inactive') accountInactiveByServer();
    throw new ApiError(describeHttpError(response.status, payload, translate, renderCode));
  }
  return response;
}

export async function request<T, B = never, Q extends object = never>(method: string, path: string, options: RequestOptions<B, Q> = {}): Promise<T> {
  const response = await send(method, path, options);
  try {
    return (await readBody(response)) as T;
  } catch (error) {
    throw toApiError(error);
  }
}

/** A file the server answers (a PDF, a Markdown export, a trajectory): its bytes and the name the server gives it. */
export interface DownloadedFile {
  blob: Blob;
  filename: string | null;
}

async function download<B, Q extends object>(method: string, path: string, options: RequestOptions<B, Q> = {}): Promise<DownloadedFile> {
  const response = await send(method, path, options);
  try {
    return { blob: await response.blob(), filename: attachmentName(response.headers.get('Content-Disposition')) };
  } catch (error) {
    throw toApiError(error);
  }
}

export const api = {
  get: <T, Q extends object = never>(path: string, options?: NoBody<Q>) => request<T, never, Q>('GET', path, options),
  post: <T, B = never, Q extends object = never>(path: string, options?: RequestOptions<B, Q>) => request<T, B, Q>('POST', path, options),
  put: <T, B = never, Q extends object = never>(path: string, options?: RequestOptions<B, Q>) => request<T, B, Q>('PUT', path, options),
  patch: <T, B = never, Q extends object = never>(path: string, options?: RequestOptions<B, Q>) => request<T, B, Q>('PATCH', path, options),
  delete: <T, Q extends object = never>(path: string, options?: NoBody<Q>) => request<T, never, Q>('DELETE', path, options),
  /** A file answered to a GET (`api.getFile<Query>(…, { query })`); its type is the bytes, so there is no reply type to name. */
  getFile: <Q extends object = never>(path: string, options?: NoBody<Q>) => download<never, Q>('GET', path, options),
  /** A file answered to a JSON body (`api.postFile<Body>(…, { json })`). */
  postFile: <B = never, Q extends object = never>(path: string, options?: RequestOptions<B, Q>) => download<B, Q>('POST', path, options),
};
