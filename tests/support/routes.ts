import { createApi } from '@scriptorium/backend/http/server';
import { routesOf } from '@scriptorium/backend/http/openapi';
import type { Contract } from '@scriptorium/backend/http/contract';
import type { TestApp } from './app.ts';
import { upload } from './world.ts';

export interface Route {
  method: string;
  /** Koa's path, `:name` for each parameter. */
  path: string;
  declared: Contract;
  key: string;
}

/** Every `/backend` route with its contract, walked from the router as the OpenAPI document is. */
export async function declaredRoutes(app: TestApp): Promise<Route[]> {
  const api = await createApi(app.services, app.runner);
  try {
    return routesOf(api.router).map(({ method, path, declared }) => {
      if (!declared) throw new Error(`${method.toUpperCase()} ${path} has no contract`);
      return { method: method.toUpperCase(), path, declared, key: `${method.toUpperCase()} ${path}` };
    });
  } finally {
    await api.close();
  }
}

export const fillPath = (path: string, params: Record<string, string>) =>
  path.replace(/:(\w+)/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`no value for :${name} in ${path}`);
    return encodeURIComponent(params[name]!);
  });

/**
 * Sends one request the way the route takes its body: multipart fields, an HTML form, JSON, or a raw
 * string given as JSON (the fuzzer's bodies, which need not parse).
 */
export async function send(
  baseUrl: string,
  token: string | undefined,
  route: Route,
  url: string,
  body: { value?: unknown; raw?: string } = {},
): Promise<{ status: number; body: any }> {
  if (route.declared.multipart) {
    const fields = (body.value ?? {}) as Record<string, string>;
    return upload(baseUrl, token, url, Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)])), { name: 'a.txt', bytes: new TextEncoder().encode('钠离子电池。') });
  }
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let payload: string | undefined = body.raw;
  if (body.raw !== undefined) headers['content-type'] = 'application/json';
  else if (body.value !== undefined && route.declared.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(body.value as Record<string, string>).toString();
  } else if (body.value !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.value);
  }
  const response = await fetch(`${baseUrl}${url}`, { method: route.method, headers, body: payload });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* PDFs, downloads and HTML stay text */
  }
  return { status: response.status, body: parsed };
}

/** A status the route may answer without it being a server fault: below 500, or a 5xx its contract declares (a service not configured). */
export const acceptable = (route: Route, status: number) => status < 500 || (route.declared.refusals ?? []).includes(status);
