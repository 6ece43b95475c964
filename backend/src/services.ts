import type { Config } from '@scriptorium/infra/config/config';
import { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { createEventStore } from '@scriptorium/infra/eventstore/index';
import type { EventStore } from '@scriptorium/infra/eventstore/port';
import type { Logger } from '@scriptorium/infra/log';
import type { Mailer } from '@scriptorium/infra/mail/port';
import { createJobQueue } from '@scriptorium/infra/queue/index';
import type { JobQueue } from '@scriptorium/infra/queue/port';
import { createReadStore } from '@scriptorium/infra/readstore/index';
import type { ReadStore } from '@scriptorium/infra/readstore/port';
import type { ModelProvider, ModelRouter } from '@scriptorium/infra/model/port';
import { parseSecretKey, SecretBox } from '@scriptorium/infra/secrets/box';
import { LiveConnections, type LiveWebSearch } from '@scriptorium/domain/connections/live';
import { createAttemptLog } from '@scriptorium/infra/attempts/index';
import type { AttemptLog } from '@scriptorium/infra/attempts/port';
import { createPresenceChannel } from '@scriptorium/infra/presence/index';
import type { PresenceChannel } from '@scriptorium/infra/presence/port';
import { createProgressSignal } from '@scriptorium/infra/progress/index';
import type { ProgressSignal } from '@scriptorium/infra/progress/port';
import { createBlobStore } from '@scriptorium/infra/blob/index';
import type { BlobStore } from '@scriptorium/infra/blob/port';
import { TokenService } from './auth/tokens.ts';
import { PasswordHasher } from '@scriptorium/infra/auth/passwords';
import { BudgetGuard } from '@scriptorium/domain/budget/guard';

/** Everything a role needs from the outside world, built once at start and passed down. */
export interface Services {
  config: Config;
  log: Logger;
  events: EventStore;
  readStore: ReadStore;
  queue: JobQueue;
  commands: CommandHandler;
  tokens: TokenService;
  passwords: PasswordHasher;
  budget: BudgetGuard;
  /** The connections an administrator set (or the environment seeded), followed live. */
  connections: LiveConnections;
  /** The default role's model as configured at each call. */
  model: ModelProvider;
  /** The model per role as configured at each call. */
  models: ModelRouter;
  /** The web search as configured at each call; `available` false while none is. */
  webSearch: LiveWebSearch;
  blobs: BlobStore;
  /** SMTP as configured at each mail, the outbox while none is. */
  mailer: Mailer;
  /** Sign-in failures, shared by every api process when Redis is configured. */
  attempts: AttemptLog;
  /** Who is live in a shared document, said between api processes (Redis pub/sub when configured); never in the log. */
  presence: PresenceChannel;
  /** The projector's progress said to api processes in split roles (LISTEN/NOTIFY on PostgreSQL); none elsewhere. */
  progress: ProgressSignal | undefined;
  clock: () => Date;
}

export async function createServices(config: Config, log: Logger): Promise<Services> {
  const [events, readStore, queue, attempts, presence, progress] = await Promise.all([
    createEventStore(config),
    createReadStore(config, { checkServer: true }),
    createJobQueue(config),
    createAttemptLog(config),
    createPresenceChannel(config, log),
    createProgressSignal(config),
  ]);
  const clock = () => new Date();
  const commands = new CommandHandler(events);
  // The config guarantees a valid key (CONNECTIONS_KEY or the one in DATA_DIR).
  const box = new SecretBox(parseSecretKey(config.CONNECTIONS_KEY)!);
  const connections = new LiveConnections({ events, commands, box, log, clock, mailFrom: config.MAIL_FROM });
  await connections.start(config);
  return {
    config,
    log,
    events,
    readStore,
    queue,
    commands,
    tokens: new TokenService(config.JWT_SECRET, config.JWT_TTL_SECONDS),
    passwords: new PasswordHasher({ memoryKib: config.PASSWORD_HASH_MEMORY_KIB, passes: config.PASSWORD_HASH_PASSES }, config.PASSWORD_HASH_MAX_WAITING),
    budget: new BudgetGuard(
      commands,
      { timeZone: config.TIME_ZONE, tokensPerCoin: config.TOKENS_PER_COIN, holdTokens: config.BUDGET_HOLD_TOKENS, holdTtlSeconds: config.BUDGET_HOLD_TTL_SECONDS },
      clock,
    ),
    connections,
    model: connections.model,
    models: connections.models,
    webSearch: connections.webSearch,
    blobs: createBlobStore(config),
    mailer: connections.mailer,
    attempts,
    presence,
    progress,
    clock,
  };
}

export async function closeServices(services: Services): Promise<void> {
  await Promise.allSettled([services.queue.close(), services.readStore.close(), services.connections.stop(), services.attempts.close(), services.presence.close(), services.progress?.close()]);
  await services.events.close();
}
