import { assertNever, type DomainEvent } from '@scriptorium/infra/eventsourcing/decider';
import type { ModelProfileOverride, ModelRole } from '@scriptorium/infra/model/profile';

/**
 * What a deployment talks to, as an administrator set it: model endpoints by role, the web search,
 * SMTP and speech recognition. One stream for the whole deployment, so every change is one append
 * at an exact revision and every role rebuilds from one read.
 *
 * Keys and passwords travel only as ciphertext (`encryptedKey`, `encryptedPassword`, sealed by the
 * caller with the deployment's connections key): the log, its copies and its exports never hold
 * them in clear. `v` is the shape of the data, so a later shape can be read beside this one.
 */
export const CONNECTIONS_STREAM = 'connections-deployment';

/** A model endpoint as configured; `encryptedKey` null: the server takes no key. */
export interface ModelEndpointConfig {
  id: string;
  baseUrl: string;
  model: string;
  profile: ModelProfileOverride;
  roles: ModelRole[];
  encryptedKey: string | null;
}

export interface SmtpConfig {
  /** `smtp://user@host:587` or `smtps://…`, never with the password. */
  url: string;
  encryptedPassword: string | null;
  from: string;
}

export interface SpeechConfig {
  baseUrl: string;
  model: string;
  encryptedKey: string | null;
}

export const CONNECTION_TARGETS = ['model', 'search', 'smtp', 'speech'] as const;
export type ConnectionTarget = (typeof CONNECTION_TARGETS)[number];

/** The outcome of one test call, as short as the audit needs: never a key, never a whole body. */
export interface ConnectionTest {
  target: ConnectionTarget;
  /** The model endpoint's id; absent for the single connections. */
  endpointId?: string;
  ok: boolean;
  latencyMs: number;
  result: string;
  by: string;
  at: string;
}

interface Who {
  by: string;
  at: string;
}

export type ModelEndpointConfigured = DomainEvent<'ModelEndpointConfigured', { v: 1 } & ModelEndpointConfig & Who>;
/** The endpoint as it now is, whole; `keyChanged` says whether the administrator gave a new key (or removed it). */
export type ModelEndpointChanged = DomainEvent<'ModelEndpointChanged', { v: 1; keyChanged: boolean } & ModelEndpointConfig & Who>;
export type ModelEndpointRemoved = DomainEvent<'ModelEndpointRemoved', { v: 1; id: string } & Who>;
export type SearchEngineSet = DomainEvent<'SearchEngineSet', { v: 1; url: string } & Who>;
export type SearchEngineCleared = DomainEvent<'SearchEngineCleared', { v: 1 } & Who>;
export type SmtpSet = DomainEvent<'SmtpSet', { v: 1; passwordChanged: boolean } & SmtpConfig & Who>;
export type SmtpCleared = DomainEvent<'SmtpCleared', { v: 1 } & Who>;
export type SpeechSet = DomainEvent<'SpeechSet', { v: 1; keyChanged: boolean } & SpeechConfig & Who>;
export type SpeechCleared = DomainEvent<'SpeechCleared', { v: 1 } & Who>;
export type ConnectionTested = DomainEvent<'ConnectionTested', { v: 1 } & ConnectionTest>;

export type ConnectionsEvent =
  | ModelEndpointConfigured
  | ModelEndpointChanged
  | ModelEndpointRemoved
  | SearchEngineSet
  | SearchEngineCleared
  | SmtpSet
  | SmtpCleared
  | SpeechSet
  | SpeechCleared
  | ConnectionTested;

export interface ConnectionSettings {
  /** In the order they were first configured: the first claiming `default` serves it. */
  endpoints: ModelEndpointConfig[];
  search: { url: string } | null;
  smtp: SmtpConfig | null;
  speech: SpeechConfig | null;
  /** The last test of each connection, keyed by `testKey`. */
  tests: Record<string, ConnectionTest>;
}

/** `empty`: nobody (no administrator, no environment seed) has configured anything yet. */
export type Connections = { status: 'empty' } | ({ status: 'configured' } & ConnectionSettings);

export const initialState = (): Connections => ({ status: 'empty' });

export const testKey = (target: ConnectionTarget, endpointId?: string): string => (target === 'model' ? `model:${endpointId ?? ''}` : target);

const settingsOf = (state: Connections): ConnectionSettings =>
  state.status === 'empty' ? { endpoints: [], search: null, smtp: null, speech: null, tests: {} } : state;

const endpointOf = (data: ModelEndpointConfig): ModelEndpointConfig => ({
  id: data.id,
  baseUrl: data.baseUrl,
  model: data.model,
  profile: data.profile,
  roles: data.roles,
  encryptedKey: data.encryptedKey,
});

/** A changed or removed connection's last test no longer says anything about it. */
function withoutTest(tests: Record<string, ConnectionTest>, key: string): Record<string, ConnectionTest> {
  const { [key]: _dropped, ...rest } = tests;
  return rest;
}

export function evolve(state: Connections, event: ConnectionsEvent): Connections {
  const settings = settingsOf(state);
  switch (event.type) {
    case 'ModelEndpointConfigured':
      return { status: 'configured', ...settings, endpoints: [...settings.endpoints, endpointOf(event.data)] };
    case 'ModelEndpointChanged':
      return {
        status: 'configured',
        ...settings,
        endpoints: settings.endpoints.map((endpoint) => (endpoint.id === event.data.id ? endpointOf(event.data) : endpoint)),
        tests: withoutTest(settings.tests, testKey('model', event.data.id)),
      };
    case 'ModelEndpointRemoved':
      return { status: 'configured', ...settings, endpoints: settings.endpoints.filter((endpoint) => endpoint.id !== event.data.id), tests: withoutTest(settings.tests, testKey('model', event.data.id)) };
    case 'SearchEngineSet':
      return { status: 'configured', ...settings, search: { url: event.data.url }, tests: withoutTest(settings.tests, 'search') };
    case 'SearchEngineCleared':
      return { status: 'configured', ...settings, search: null, tests: withoutTest(settings.tests, 'search') };
    case 'SmtpSet':
      return { status: 'configured', ...settings, smtp: { url: event.data.url, encryptedPassword: event.data.encryptedPassword, from: event.data.from }, tests: withoutTest(settings.tests, 'smtp') };
    case 'SmtpCleared':
      return { status: 'configured', ...settings, smtp: null, tests: withoutTest(settings.tests, 'smtp') };
    case 'SpeechSet':
      return { status: 'configured', ...settings, speech: { baseUrl: event.data.baseUrl, model: event.data.model, encryptedKey: event.data.encryptedKey }, tests: withoutTest(settings.tests, 'speech') };
    case 'SpeechCleared':
      return { status: 'configured', ...settings, speech: null, tests: withoutTest(settings.tests, 'speech') };
    case 'ConnectionTested': {
      const { v: _v, ...test } = event.data;
      return { status: 'configured', ...settings, tests: { ...settings.tests, [testKey(test.target, test.endpointId)]: test } };
    }
    default:
      return assertNever(event);
  }
}
