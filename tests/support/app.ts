import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@scriptorium/infra/config/config';
import { createLogger, type Logger } from '@scriptorium/infra/log';
import { createProjections } from '@scriptorium/projections/index';
import { ProjectionRunner } from '@scriptorium/projections/runner';
import { startWorkers } from '@scriptorium/workers/index';
import { startResearchTools, type ResearchTools } from '@scriptorium/workers/research';
import type { AgentDeps } from '@scriptorium/workers/agents/deps';
import { createApi, type Api } from '@scriptorium/backend/http/server';
import { closeServices, createServices, type Services } from '@scriptorium/backend/services';
import { seedAdmin } from '@scriptorium/domain/user/seedAdmin';
import { startProcessManagers } from '@scriptorium/backend/processes';
import { conformanceOf } from './contract.ts';
import { startMockOpenAI, type ChatBody, type MockOpenAIOptions } from './mockOpenAI.ts';
import { startModelGateway, type GatewayAnswer } from './modelGateway.ts';
import { TEST_PASSWORD_COST } from './product.ts';

export interface TestApp {
  url: string;
  services: Services;
  runner: ProjectionRunner;
  research: ResearchTools;
  api: Api;
  /** Waits until the read models and the process managers have handled everything in the log so far. */
  settle(): Promise<void>;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * The whole product in this process on embedded adapters, listening on a free port; every test user
 * registers from one address. `agents` adds to what the workers are given (search, pages); `log`
 * replaces the silent logger (to read what the product logs). The hashing queue has no bound unless
 * a test sets one: its lanes are the process's, and a grouped test process (ava.config.js) holds
 * dozens of apps whose first sign-ups all queue there at once.
 */
export async function startTestApp(env: Record<string, string> = {}, options: { agents?: Partial<AgentDeps>; log?: Logger } = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', REGISTER_MAX_PER_ADDRESS: '10000', PASSWORD_HASH_MAX_WAITING: '10000', ...TEST_PASSWORD_COST, ...env });
  const log = options.log ?? createLogger(config.LOG_LEVEL, 'test');
  const services = await createServices(config, log);
  if (config.ADMIN_USERNAME && config.ADMIN_PASSWORD) {
    await seedAdmin(services, { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD, email: config.ADMIN_EMAIL }, { now: new Date() });
  }
  const runner = new ProjectionRunner(services.events, services.readStore, createProjections({ timeZone: config.TIME_ZONE }), log);
  await runner.start();
  const reactor = await startProcessManagers(services);
  const research = await startResearchTools(services);
  const workers = startWorkers({ ...services, ...research, ...options.agents });
  const api = await createApi(services, runner, { runner });
  const { app } = api;
  const server = app.listen(0, '127.0.0.1');
  // The server shares the suite's process: when a test blocks it for seconds (a validator compiled, a
  // document checked) on a loaded machine, the server's idle timer (5 s) fires the moment it wakes and
  // resets the socket the client is reusing ("fetch failed"). The client closes its idle sockets itself.
  server.keepAliveTimeout = 10 * 60_000;
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    services,
    runner,
    research,
    api,
    dataDir,
    async settle() {
      await reactor.waitFor(await services.events.headPosition());
      await runner.waitFor(await services.events.headPosition());
    },
    async stop() {
      await api.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await workers.close();
      await research.close();
      await reactor.stop();
      await runner.stop();
      await closeServices(services);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Requests a suite makes; every answer is checked against the server's OpenAPI document (contract.ts). */
export interface Client {
  token?: string;
  request(method: string, path: string, body?: unknown, init?: { form?: boolean; headers?: Record<string, string>; raw?: string }): Promise<{ status: number; body: any; headers: Headers }>;
}

export function client(baseUrl: string, token?: string): Client {
  return {
    token,
    async request(method, path, body, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (this.token) headers.authorization = `Bearer ${this.token}`;
      let payload: string | undefined = init.raw;
      if (body !== undefined) {
        if (init.form) {
          headers['content-type'] = 'application/x-www-form-urlencoded';
          payload = new URLSearchParams(body as Record<string, string>).toString();
        } else {
          headers['content-type'] = 'application/json';
          payload = JSON.stringify(body);
        }
      }
      const response = await fetch(`${baseUrl}${path}`, { method, headers, body: payload });
      const { parsed } = await checked(baseUrl, method, response);
      return { status: response.status, body: parsed, headers: response.headers };
    },
  };
}

/**
 * Every answer a suite sees is checked against the document: a reply that drifts from its schema fails
 * the test. Answers its text, and the text parsed when it is JSON (HTML, metrics, files stay text).
 */
async function checked(baseUrl: string, method: string, response: Response): Promise<{ text: string; parsed: unknown }> {
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON: kept as text */
  }
  (await conformanceOf(baseUrl)).check(method, response.url, { status: response.status, contentType: response.headers.get('content-type') ?? '', text, body: parsed });
  return { text, parsed };
}

/**
 * `fetch` for what `client` does not send or read (a multipart upload, a file's bytes): the answer is
 * checked against the OpenAPI document as `client`'s are, and handed back unread. HTTP suites call
 * this, never `fetch` itself (ESLint's no-restricted-globals in tests/http).
 */
export async function checkedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, init);
  await checked(new URL(url).origin, init.method ?? 'GET', response.clone());
  return response;
}

/** The administrator that `startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' })` seeds. */
const ROOT = { username: 'root', password: 'root-password' } as const;

/** Signs in through the admin login; returns a client carrying the administrator's token. */
export async function signInAdmin(baseUrl: string, credentials: { username: string; password: string } = ROOT): Promise<Client> {
  const login = await client(baseUrl).request('POST', '/backend/auth/admin/login', credentials, { form: true });
  if (login.status !== 200) throw new Error(`admin login ${credentials.username}: ${login.status} ${JSON.stringify(login.body)}`);
  return client(baseUrl, login.body.access_token);
}

/** Registers and logs in; returns a client carrying the token. */
export async function signUp(baseUrl: string, username: string, password = 'correct horse battery'): Promise<Client & { userId: string }> {
  const anonymous = client(baseUrl);
  const registered = await anonymous.request('POST', '/backend/auth/register', { username, email: `${username}@example.com`, nickname: username, password });
  if (registered.status !== 200) throw new Error(`register ${username}: ${registered.status} ${JSON.stringify(registered.body)}`);
  const login = await anonymous.request('POST', '/backend/auth/login', { username, password }, { form: true });
  if (login.status !== 200) throw new Error(`login ${username}: ${login.status}`);
  return Object.assign(client(baseUrl, login.body.access_token), { userId: registered.body.id as string });
}

/**
 * The test app on a local OpenAI-compatible model started with `model` (as `mock-model`), which stops
 * with the app. With `gate`, the app reaches the model through a gateway that decides each request's
 * fate (pass, cut, refuse), as a misbehaving provider would.
 */
export async function startAppOnModel(
  model: MockOpenAIOptions,
  env: Record<string, string> = {},
  { gate, ...options }: Parameters<typeof startTestApp>[1] & { gate?: (request: ChatBody) => GatewayAnswer } = {},
): Promise<TestApp> {
  const upstream = await startMockOpenAI(model);
  const gateway = gate ? await startModelGateway(upstream.origin, gate) : null;
  const app = await startTestApp({ LLM_BASE_URL: gateway?.url ?? upstream.url, LLM_MODEL: 'mock-model', ...env }, options);
  return {
    ...app,
    async stop() {
      await app.stop();
      await gateway?.close();
      await upstream.close();
    },
  };
}
