import type { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import type { AllSubscription, EventStore } from '@scriptorium/infra/eventstore/port';
import type { Logger } from '@scriptorium/infra/log';
import { OutboxMailer } from '@scriptorium/infra/mail/outbox';
import type { Mailer, MailMessage } from '@scriptorium/infra/mail/port';
import { SmtpMailer } from '@scriptorium/infra/mail/smtp';
import { OfflineProvider } from '@scriptorium/infra/model/offline';
import { modelEnvironment, providerFor } from '@scriptorium/infra/model/index';
import type { OpenAICompatibleProvider } from '@scriptorium/infra/model/openai';
import type { Completion, ModelDelta, ModelProvider, ModelRequest, ModelRouter } from '@scriptorium/infra/model/port';
import { profileFor, type ModelProfile, type ModelProfileOverride, type ModelRole } from '@scriptorium/infra/model/profile';
import { SecretUnreadable, type SecretBox } from '@scriptorium/infra/secrets/box';
import { SearchError, SearxngSearch } from '@scriptorium/infra/search/searxng';
import type { SearchHit, SearchOptions, WebSearch } from '@scriptorium/infra/search/port';
import { CONNECTIONS_STREAM, initialState, type ConnectionSettings, type Connections, type ModelEndpointConfig } from './connections.ts';
import { connectionsDecider } from './decide.ts';

/** What the environment says about connections; it only seeds an empty stream. */
export interface ConnectionsEnvironment {
  LLM_BASE_URL?: string | undefined;
  LLM_API_KEY?: string | undefined;
  LLM_MODEL?: string | undefined;
  LLM_PROFILE?: ModelProfileOverride | undefined;
  LLM_ROLE_MODELS?: Partial<Record<ModelRole, string>> | undefined;
  SEARCH_URL?: string | undefined;
  SMTP_URL?: string | undefined;
  MAIL_FROM: string;
  ASR_BASE_URL?: string | undefined;
  ASR_API_KEY?: string | undefined;
  ASR_MODEL: string;
}

export interface LiveConnectionsDeps {
  events: EventStore;
  commands: CommandHandler;
  box: SecretBox;
  log: Logger;
  clock: () => Date;
  /** The sender of the outbox when no SMTP is set (`MAIL_FROM`). */
  mailFrom: string;
}

/** The endpoint id the environment's `LLM_*` model gets. */
export const ENVIRONMENT_ENDPOINT = 'environment';

/** A secret as the api may show it: whether there is one, whether it opens, and its last four characters at most. */
export interface SecretHint {
  set: boolean;
  readable: boolean;
  last4: string | null;
}

export interface SpeechConnection {
  baseUrl: string;
  model: string;
  apiKey?: string;
}

/** `for(role)` answers what the current configuration says, asked per call. */
export class LiveModelRouter implements ModelRouter {
  constructor(private readonly current: () => ReadonlyMap<ModelRole, ModelProvider>, private readonly fallback: ModelProvider) {}

  for(role: ModelRole): ModelProvider {
    const byRole = this.current();
    return byRole.get(role) ?? byRole.get('default') ?? this.fallback;
  }
}

/**
 * The default role's model for code that holds one provider (every agent's `deps.model`): each call
 * and each read of its name, mode and profile goes to the model configured at that moment.
 */
export class LiveModelProvider implements ModelProvider {
  constructor(private readonly router: ModelRouter) {}

  get name(): string {
    return this.router.for('default').name;
  }

  get offline(): boolean {
    return this.router.for('default').offline;
  }

  get profile(): ModelProfile {
    return this.router.for('default').profile;
  }

  stream(request: ModelRequest): AsyncIterable<ModelDelta> {
    return this.router.for('default').stream(request);
  }

  complete(request: ModelRequest): Promise<Completion> {
    return this.router.for('default').complete(request);
  }
}

/** The web search as configured now; `available` false while none is set. */
export class LiveWebSearch implements WebSearch {
  readonly name = 'searxng';
  readonly offline = false;

  constructor(private readonly current: () => WebSearch | undefined) {}

  get available(): boolean {
    return this.current() !== undefined;
  }

  search(query: string, options?: SearchOptions): Promise<SearchHit[]> {
    const search = this.current();
    if (!search) return Promise.reject(new SearchError('network', 'no web search is configured'));
    return search.search(query, options);
  }
}

/** SMTP when set, the outbox in the log otherwise, decided per mail. */
class LiveMailer implements Mailer {
  constructor(private readonly current: () => Mailer) {}

  get transport(): Mailer['transport'] {
    return this.current().transport;
  }

  send(message: MailMessage): Promise<void> {
    return this.current().send(message);
  }

  close(): Promise<void> {
    return this.current().close();
  }
}

interface Built {
  byRole: Map<ModelRole, ModelProvider>;
  search: WebSearch | undefined;
  mailer: Mailer;
  speech: SpeechConnection | undefined;
}

/**
 * The deployment's connections, live: built from the `connections-deployment` stream at start and
 * rebuilt whenever it changes, so every role uses an administrator's change without a restart.
 * A role learns of a change by following the log (a subscription from the head, filtered to the
 * stream) and the api also refreshes right after its own command, so its next request sees it.
 */
export class LiveConnections {
  readonly models: LiveModelRouter;
  readonly model: LiveModelProvider;
  readonly webSearch: LiveWebSearch;
  readonly mailer: Mailer;
  #state: Connections = initialState();
  #revision = -1;
  #built: Built;
  #offline = new OfflineProvider();
  #outbox: OutboxMailer;
  #subscription: AllSubscription | undefined;
  #refreshing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: LiveConnectionsDeps) {
    this.#outbox = new OutboxMailer(deps.events, deps.mailFrom, deps.log, deps.clock);
    this.#built = { byRole: new Map(), search: undefined, mailer: this.#outbox, speech: undefined };
    this.models = new LiveModelRouter(() => this.#built.byRole, this.#offline);
    this.model = new LiveModelProvider(this.models);
    this.webSearch = new LiveWebSearch(() => this.#built.search);
    this.mailer = new LiveMailer(() => this.#built.mailer);
  }

  /** Seeds an empty stream from the environment, reads it, then follows the log for changes. */
  async start(environment: ConnectionsEnvironment): Promise<void> {
    await this.seed(environment);
    await this.refresh();
    const subscription = this.deps.events.subscribeToAll({ after: await this.deps.events.headPosition() });
    this.#subscription = subscription;
    void (async () => {
      try {
        for await (const event of subscription) {
          if (event.streamId !== CONNECTIONS_STREAM) continue;
          // A failed read is retried by the next change or the next request that refreshes.
          await this.refresh().catch((error: unknown) => this.deps.log.error({ err: error }, 'the connections could not be read; keeping the ones built before'));
        }
      } catch (error) {
        this.deps.log.error({ err: error }, 'the connections subscription ended; changes reach this process at its next restart');
      }
    })();
  }

  async stop(): Promise<void> {
    await this.#subscription?.close();
    await this.#built.mailer.close();
  }

  /** Reads what the stream has beyond what was built and rebuilds when it moved; one refresh at a time. */
  refresh(): Promise<void> {
    // After a failed refresh the next one still runs: the chain carries order, not failures.
    this.#refreshing = this.#refreshing.catch(() => undefined).then(async () => {
      const { state, revision } = await this.deps.commands.load(connectionsDecider, CONNECTIONS_STREAM);
      if (revision === this.#revision) return;
      this.#state = state;
      this.#revision = revision;
      this.#built = this.build(this.settings());
      this.deps.log.info({ revision, endpoints: this.settings().endpoints.map((endpoint) => ({ id: endpoint.id, model: endpoint.model, roles: endpoint.roles })) }, 'connections loaded');
    });
    return this.#refreshing;
  }

  /** What is configured (sealed secrets included: for the api to hint at, never to send). */
  settings(): ConnectionSettings {
    return this.#state.status === 'empty' ? { endpoints: [], search: null, smtp: null, speech: null, tests: {} } : this.#state;
  }

  get revision(): number {
    return this.#revision;
  }

  speech(): SpeechConnection | undefined {
    return this.#built.speech;
  }

  /** The plain secret, or undefined when there is none or it cannot be opened with this key. */
  open(sealed: string | null): string | undefined {
    if (sealed === null) return undefined;
    try {
      return this.deps.box.open(sealed);
    } catch (error) {
      if (error instanceof SecretUnreadable) return undefined;
      throw error;
    }
  }

  seal(plain: string): string {
    return this.deps.box.seal(plain);
  }

  hint(sealed: string | null): SecretHint {
    if (sealed === null) return { set: false, readable: false, last4: null };
    const plain = this.open(sealed);
    // A short secret's last four characters would be most of it.
    return { set: true, readable: plain !== undefined, last4: plain !== undefined && plain.length >= 12 ? plain.slice(-4) : null };
  }

  /** The profile an endpoint is called with: its family's (or the default), with its override on top. */
  profileOf(endpoint: ModelEndpointConfig): ModelProfile {
    return profileFor(endpoint.model, endpoint.profile);
  }

  /** A provider for one endpoint as configured, as the router builds it. */
  providerFor(endpoint: ModelEndpointConfig): OpenAICompatibleProvider {
    const apiKey = this.open(endpoint.encryptedKey);
    if (endpoint.encryptedKey !== null && apiKey === undefined) {
      this.deps.log.warn({ endpoint: endpoint.id }, 'the key of this model endpoint cannot be opened with CONNECTIONS_KEY; calling it without one');
    }
    return providerFor({ baseUrl: endpoint.baseUrl, model: endpoint.model, profile: endpoint.profile, ...(apiKey && { apiKey }) });
  }

  /** The SMTP URL with its password put back in, for the transport only. */
  smtpUrl(smtp: { url: string; encryptedPassword: string | null }): string {
    const password = this.open(smtp.encryptedPassword);
    if (password === undefined) return smtp.url;
    const url = new URL(smtp.url);
    url.password = encodeURIComponent(password);
    return url.toString();
  }

  private build(settings: ConnectionSettings): Built {
    const byRole = new Map<ModelRole, ModelProvider>();
    for (const endpoint of settings.endpoints) {
      const provider = this.providerFor(endpoint);
      // Endpoints come in the order they were configured: the first to claim `default` keeps it.
      for (const role of endpoint.roles) if (!byRole.has(role)) byRole.set(role, provider);
    }
    const speechKey = settings.speech ? this.open(settings.speech.encryptedKey) : undefined;
    return {
      byRole,
      search: settings.search ? new SearxngSearch({ baseUrl: settings.search.url }) : undefined,
      mailer: settings.smtp ? new SmtpMailer(this.smtpUrl(settings.smtp), settings.smtp.from) : this.#outbox,
      speech: settings.speech ? { baseUrl: settings.speech.baseUrl, model: settings.speech.model, ...(speechKey && { apiKey: speechKey }) } : undefined,
    };
  }

  /**
   * Writes the environment's connections into an empty stream. Every role may run this at the same
   * time: the append expects no stream, so one seed lands and the others, deciding again on the
   * stream it made, append nothing. (Not deterministic ids: a second role's seed with other values
   * would pass as an idempotent retry and leave that role believing its own values.)
   */
  /** `LLM_MODEL` (with `LLM_PROFILE`) serves `default`; each model of `LLM_ROLE_MODELS` is one more endpoint on the same server. */
  private environmentEndpoints(env: ConnectionsEnvironment, baseUrl: string, model: string, encryptedKey: string | null): ModelEndpointConfig[] {
    const roleModels = Object.entries(env.LLM_ROLE_MODELS ?? {}) as Array<[ModelRole, string]>;
    return [
      { id: ENVIRONMENT_ENDPOINT, baseUrl, model, profile: env.LLM_PROFILE ?? {}, roles: ['default'], encryptedKey },
      ...roleModels.map(([role, roleModel]): ModelEndpointConfig => ({ id: `${ENVIRONMENT_ENDPOINT}-${role}`, baseUrl, model: roleModel, profile: {}, roles: [role], encryptedKey })),
    ];
  }

  private async seed(env: ConnectionsEnvironment): Promise<void> {
    const llm = modelEnvironment(env);
    const smtp = env.SMTP_URL ? new URL(env.SMTP_URL) : undefined;
    const smtpPassword = smtp && smtp.password ? decodeURIComponent(smtp.password) : undefined;
    if (smtp) smtp.password = '';
    const seeds = {
      ...(llm && { endpoints: this.environmentEndpoints(env, llm.baseUrl, llm.model, llm.apiKey ? this.seal(llm.apiKey) : null) }),
      ...(env.SEARCH_URL && { search: { url: env.SEARCH_URL } }),
      ...(smtp && { smtp: { url: smtp.toString(), from: env.MAIL_FROM, encryptedPassword: smtpPassword ? this.seal(smtpPassword) : null } }),
      ...(env.ASR_BASE_URL && { speech: { baseUrl: env.ASR_BASE_URL, model: env.ASR_MODEL, encryptedKey: env.ASR_API_KEY ? this.seal(env.ASR_API_KEY) : null } }),
    };
    if (Object.keys(seeds).length === 0) return;
    const result = await this.deps.commands.handle(
      connectionsDecider,
      CONNECTIONS_STREAM,
      { type: 'SeedConnections', data: { ...seeds, by: 'environment' }, metadata: { now: this.deps.clock() } },
    );
    if (result.newEvents.length === 0) this.deps.log.info('connections are set in the log; LLM_*, SEARCH_URL, SMTP_URL and ASR_* only seed an empty one');
  }
}

