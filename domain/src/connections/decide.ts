import { assertNever, type Command, type Decider } from '@scriptorium/infra/eventsourcing/decider';
import { MODEL_ROLES, modelProfileOverrideSchema, type ModelProfileOverride, type ModelRole } from '@scriptorium/infra/model/profile';
import { refuse } from '../refuse.ts';
import {
  evolve,
  initialState,
  type ConnectionSettings,
  type Connections,
  type ConnectionsEvent,
  type ConnectionTarget,
  type ModelEndpointConfig,
  type SmtpConfig,
  type SpeechConfig,
} from './connections.ts';

/** What an administrator gives for an endpoint; the key already sealed. */
interface EndpointInput {
  id: string;
  baseUrl: string;
  model: string;
  profile: ModelProfileOverride;
  roles: string[];
}

/** `encryptedKey` (and `encryptedPassword`) absent on a change: keep the one saved; null: take none. */
export type ConfigureModelEndpoint = Command<'ConfigureModelEndpoint', EndpointInput & { encryptedKey: string | null; by: string }>;
export type ChangeModelEndpoint = Command<'ChangeModelEndpoint', EndpointInput & { encryptedKey?: string | null; by: string }>;
export type RemoveModelEndpoint = Command<'RemoveModelEndpoint', { id: string; by: string }>;
export type SetSearchEngine = Command<'SetSearchEngine', { url: string; by: string }>;
export type ClearSearchEngine = Command<'ClearSearchEngine', { by: string }>;
export type SetSmtp = Command<'SetSmtp', { url: string; from: string; encryptedPassword?: string | null; by: string }>;
export type ClearSmtp = Command<'ClearSmtp', { by: string }>;
export type SetSpeech = Command<'SetSpeech', { baseUrl: string; model: string; encryptedKey?: string | null; by: string }>;
export type ClearSpeech = Command<'ClearSpeech', { by: string }>;
export type RecordConnectionTest = Command<'RecordConnectionTest', { target: ConnectionTarget; endpointId?: string; ok: boolean; latencyMs: number; result: string; by: string }>;
/**
 * The environment's connections (`LLM_*`, `SEARCH_URL`, `SMTP_URL`, `ASR_*`), written once into an
 * empty stream at start; once anything is configured the stream is the truth and this does nothing.
 */
export type SeedConnections = Command<
  'SeedConnections',
  {
    endpoints?: ModelEndpointConfig[];
    search?: { url: string };
    smtp?: SmtpConfig;
    speech?: SpeechConfig;
    by: string;
  }
>;

export type ConnectionsCommand =
  | ConfigureModelEndpoint
  | ChangeModelEndpoint
  | RemoveModelEndpoint
  | SetSearchEngine
  | ClearSearchEngine
  | SetSmtp
  | ClearSmtp
  | SetSpeech
  | ClearSpeech
  | RecordConnectionTest
  | SeedConnections;

const ENDPOINT_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MAX_MODEL = 200;
/** `name@host` or `Name <name@host>`: what nodemailer and every SMTP server take as a sender. */
const MAIL_FROM = /^(?:[^<>\r\n]*<[^@\s<>]+@[^@\s<>]+>|[^@\s<>]+@[^@\s<>]+)$/;
/** A test's result is a line for the audit, not a transcript. */
export const MAX_TEST_RESULT = 300;

const settingsOf = (state: Connections): ConnectionSettings =>
  state.status === 'empty' ? { endpoints: [], search: null, smtp: null, speech: null, tests: {} } : state;

function checkUrl(value: string, field: string, protocols: readonly string[] = ['http:', 'https:']): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw protocols[0] === 'smtp:' ? refuse('invalid', 'connections.smtp_url_invalid', {}, field) : refuse('invalid', 'connections.url_invalid', {}, field);
  }
  if (!protocols.includes(url.protocol)) {
    throw protocols[0] === 'smtp:' ? refuse('invalid', 'connections.smtp_url_invalid', {}, field) : refuse('invalid', 'connections.url_invalid', {}, field);
  }
  // A password in a URL would sit in the log in clear; SMTP may name its user, never its password.
  if (url.password !== '' || (url.username !== '' && protocols[0] !== 'smtp:')) throw refuse('invalid', 'connections.url_credentials', {}, field);
  return value.trim();
}

function checkModel(model: string, field = 'model'): string {
  const trimmed = model.trim();
  if (!trimmed) throw refuse('invalid', 'connections.model_required', {}, field);
  if (trimmed.length > MAX_MODEL) throw refuse('invalid', 'connections.model_too_long', { max: MAX_MODEL }, field);
  return trimmed;
}

function checkRoles(roles: string[]): ModelRole[] {
  if (roles.length === 0) throw refuse('invalid', 'connections.roles_required', {}, 'roles');
  const unknown = roles.find((role) => !(MODEL_ROLES as readonly string[]).includes(role));
  if (unknown !== undefined) throw refuse('invalid', 'connections.role_unknown', { role: unknown }, 'roles');
  // In the catalogue's order, once each: equal configurations compare equal.
  return MODEL_ROLES.filter((role) => roles.includes(role));
}

function checkProfile(profile: ModelProfileOverride): ModelProfileOverride {
  const parsed = modelProfileOverrideSchema.strict().safeParse(profile);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join('.') || 'profile';
    throw refuse('invalid', 'connections.profile_invalid', { field }, 'profile');
  }
  return Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined)) as ModelProfileOverride;
}

/** Every role but `default` has one endpoint at most, or which model writes would be a coin toss. */
function checkRolesFree(settings: ConnectionSettings, id: string, roles: ModelRole[]): void {
  for (const role of roles) {
    if (role === 'default') continue;
    const holder = settings.endpoints.find((endpoint) => endpoint.id !== id && endpoint.roles.includes(role));
    if (holder) throw refuse('conflict', 'connections.role_taken', { role, id: holder.id }, 'roles');
  }
}

function endpointFrom(data: EndpointInput, encryptedKey: string | null): ModelEndpointConfig {
  if (!ENDPOINT_ID.test(data.id)) throw refuse('invalid', 'connections.endpoint_id_invalid', {}, 'id');
  return { id: data.id, baseUrl: checkUrl(data.baseUrl, 'base_url'), model: checkModel(data.model), profile: checkProfile(data.profile), roles: checkRoles(data.roles), encryptedKey };
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function checkFrom(from: string): string {
  const trimmed = from.trim();
  if (!MAIL_FROM.test(trimmed)) throw refuse('invalid', 'connections.mail_from_invalid', {}, 'from');
  return trimmed;
}

const who = (command: { data: { by: string }; metadata: { now: Date } }) => ({ by: command.data.by, at: command.metadata.now.toISOString() });

export const configureModelEndpoint = (command: ConfigureModelEndpoint, state: Connections): ConnectionsEvent => {
  const settings = settingsOf(state);
  const endpoint = endpointFrom(command.data, command.data.encryptedKey);
  if (settings.endpoints.some((existing) => existing.id === endpoint.id)) throw refuse('conflict', 'connections.endpoint_exists', {}, 'id');
  checkRolesFree(settings, endpoint.id, endpoint.roles);
  return { type: 'ModelEndpointConfigured', data: { v: 1, ...endpoint, ...who(command) } };
};

export const changeModelEndpoint = (command: ChangeModelEndpoint, state: Connections): ConnectionsEvent[] => {
  const settings = settingsOf(state);
  const current = settings.endpoints.find((endpoint) => endpoint.id === command.data.id);
  if (!current) throw refuse('not_found', 'connections.endpoint_not_found');
  const encryptedKey = command.data.encryptedKey === undefined ? current.encryptedKey : command.data.encryptedKey;
  const endpoint = endpointFrom(command.data, encryptedKey);
  checkRolesFree(settings, endpoint.id, endpoint.roles);
  const keyChanged = command.data.encryptedKey !== undefined;
  if (!keyChanged && sameJson(endpoint, current)) return [];
  return [{ type: 'ModelEndpointChanged', data: { v: 1, keyChanged, ...endpoint, ...who(command) } }];
};

export const removeModelEndpoint = (command: RemoveModelEndpoint, state: Connections): ConnectionsEvent[] => {
  if (!settingsOf(state).endpoints.some((endpoint) => endpoint.id === command.data.id)) return [];
  return [{ type: 'ModelEndpointRemoved', data: { v: 1, id: command.data.id, ...who(command) } }];
};

export const setSearchEngine = (command: SetSearchEngine, state: Connections): ConnectionsEvent[] => {
  const url = checkUrl(command.data.url, 'url');
  if (settingsOf(state).search?.url === url) return [];
  return [{ type: 'SearchEngineSet', data: { v: 1, url, ...who(command) } }];
};

export const clearSearchEngine = (command: ClearSearchEngine, state: Connections): ConnectionsEvent[] =>
  settingsOf(state).search ? [{ type: 'SearchEngineCleared', data: { v: 1, ...who(command) } }] : [];

export const setSmtp = (command: SetSmtp, state: Connections): ConnectionsEvent[] => {
  const current = settingsOf(state).smtp;
  const url = checkUrl(command.data.url, 'url', ['smtp:', 'smtps:']);
  const from = checkFrom(command.data.from);
  const passwordChanged = command.data.encryptedPassword !== undefined;
  const encryptedPassword = passwordChanged ? (command.data.encryptedPassword ?? null) : (current?.encryptedPassword ?? null);
  if (!passwordChanged && current && current.url === url && current.from === from) return [];
  return [{ type: 'SmtpSet', data: { v: 1, url, from, encryptedPassword, passwordChanged, ...who(command) } }];
};

export const clearSmtp = (command: ClearSmtp, state: Connections): ConnectionsEvent[] => (settingsOf(state).smtp ? [{ type: 'SmtpCleared', data: { v: 1, ...who(command) } }] : []);

export const setSpeech = (command: SetSpeech, state: Connections): ConnectionsEvent[] => {
  const current = settingsOf(state).speech;
  const baseUrl = checkUrl(command.data.baseUrl, 'base_url');
  const model = checkModel(command.data.model);
  const keyChanged = command.data.encryptedKey !== undefined;
  const encryptedKey = keyChanged ? (command.data.encryptedKey ?? null) : (current?.encryptedKey ?? null);
  if (!keyChanged && current && current.baseUrl === baseUrl && current.model === model) return [];
  return [{ type: 'SpeechSet', data: { v: 1, baseUrl, model, encryptedKey, keyChanged, ...who(command) } }];
};

export const clearSpeech = (command: ClearSpeech, state: Connections): ConnectionsEvent[] =>
  settingsOf(state).speech ? [{ type: 'SpeechCleared', data: { v: 1, ...who(command) } }] : [];

/** Only what is configured can have been tested. */
export const recordConnectionTest = (command: RecordConnectionTest, state: Connections): ConnectionsEvent => {
  const settings = settingsOf(state);
  const { target, endpointId } = command.data;
  if (target === 'model') {
    if (!settings.endpoints.some((endpoint) => endpoint.id === endpointId)) throw refuse('not_found', 'connections.endpoint_not_found');
  } else if (settings[target] === null) throw refuse('not_found', 'connections.not_set');
  const result = command.data.result.length > MAX_TEST_RESULT ? `${command.data.result.slice(0, MAX_TEST_RESULT - 1)}…` : command.data.result;
  return {
    type: 'ConnectionTested',
    data: {
      v: 1,
      target,
      ...(target === 'model' && { endpointId }),
      ok: command.data.ok,
      latencyMs: Math.max(0, Math.round(command.data.latencyMs)),
      result,
      ...who(command),
    },
  };
};

export const seedConnections = (command: SeedConnections, state: Connections): ConnectionsEvent[] => {
  if (state.status !== 'empty') return [];
  const { endpoints = [], search, smtp, speech } = command.data;
  const events: ConnectionsEvent[] = [];
  const at = who(command);
  for (const endpoint of endpoints) events.push({ type: 'ModelEndpointConfigured', data: { v: 1, ...endpointFrom(endpoint, endpoint.encryptedKey), ...at } });
  if (search) events.push(...setSearchEngine({ type: 'SetSearchEngine', data: { url: search.url, by: command.data.by }, metadata: command.metadata }, state));
  if (smtp) events.push(...setSmtp({ type: 'SetSmtp', data: { ...smtp, by: command.data.by }, metadata: command.metadata }, state));
  if (speech) events.push(...setSpeech({ type: 'SetSpeech', data: { ...speech, by: command.data.by }, metadata: command.metadata }, state));
  return events;
};

export function decide(command: ConnectionsCommand, state: Connections): ConnectionsEvent | ConnectionsEvent[] {
  switch (command.type) {
    case 'ConfigureModelEndpoint':
      return configureModelEndpoint(command, state);
    case 'ChangeModelEndpoint':
      return changeModelEndpoint(command, state);
    case 'RemoveModelEndpoint':
      return removeModelEndpoint(command, state);
    case 'SetSearchEngine':
      return setSearchEngine(command, state);
    case 'ClearSearchEngine':
      return clearSearchEngine(command, state);
    case 'SetSmtp':
      return setSmtp(command, state);
    case 'ClearSmtp':
      return clearSmtp(command, state);
    case 'SetSpeech':
      return setSpeech(command, state);
    case 'ClearSpeech':
      return clearSpeech(command, state);
    case 'RecordConnectionTest':
      return recordConnectionTest(command, state);
    case 'SeedConnections':
      return seedConnections(command, state);
    default:
      return assertNever(command);
  }
}

export const connectionsDecider: Decider<Connections, ConnectionsCommand, ConnectionsEvent> = { initialState, evolve, decide };
