import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '@scriptorium/infra/config/config';
import { createLogger } from '@scriptorium/infra/log';
import { createProjections } from '@scriptorium/projections/index';
import { ProjectionRunner, RemoteProjectionProgress } from '@scriptorium/projections/runner';
import { startWorkers } from '@scriptorium/workers/index';
import { requeueRunningDeckReviews, requeueRunningDemos, requeueRunningExtractions, requeueRunningReplies } from '@scriptorium/workers/recovery';
import { startResearchTools } from '@scriptorium/workers/research';
import { OpenAIEmbeddings } from '@scriptorium/infra/embeddings/openai';
import { seedAdmin } from '@scriptorium/domain/user/seedAdmin';
import { startProcessManagers } from './processes.ts';
import { createApi } from './http/server.ts';
import { closeServices, createServices } from './services.ts';

/** How long an idle keep-alive connection stays open on the server's side. */
const IDLE_CONNECTION_MS = 65_000;

type Role = 'api' | 'projector' | 'worker';

function readConfig() {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { role: { type: 'string' } }, strict: true });
  const config = readConfig();
  const roleName = values.role ?? config.ROLE;
  if (!['all', 'api', 'projector', 'worker'].includes(roleName)) {
    process.stderr.write(`configuration error: --role must be all, api, projector or worker (got ${roleName})\n`);
    process.exit(1);
  }
  const roles: Role[] = roleName === 'all' ? ['api', 'projector', 'worker'] : [roleName as Role];
  const log = createLogger(config.LOG_LEVEL, roleName);
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled rejection'));

  const services = await createServices(config, log);
  const projections = createProjections({ timeZone: config.TIME_ZONE });
  const stops: Array<() => Promise<void>> = [];

  let runner: ProjectionRunner | undefined;
  if (roles.includes('projector')) {
    runner = new ProjectionRunner(services.events, services.readStore, projections, log, services.progress);
    await runner.start();
    stops.push(() => runner!.stop());
    const reactor = await startProcessManagers(services);
    stops.unshift(() => reactor.stop());
  }
  if (roles.includes('worker')) {
    const research = await startResearchTools(services);
    const researchLimits = {
      modelConcurrency: config.RESEARCH_MODEL_CONCURRENCY,
      fetchConcurrency: config.RESEARCH_FETCH_CONCURRENCY,
      workerModelConcurrency: config.RESEARCH_WORKER_MODEL_CONCURRENCY,
      workerFetchConcurrency: config.RESEARCH_WORKER_FETCH_CONCURRENCY,
      maxRounds: config.RESEARCH_MAX_ROUNDS,
      followUpTokens: config.RESEARCH_FOLLOW_UP_TOKENS,
      tokensEstimate: config.RESEARCH_TOKENS_ESTIMATE,
    };
    const embeddings = config.EMBEDDING_BASE_URL ? new OpenAIEmbeddings({ baseUrl: config.EMBEDDING_BASE_URL, model: config.EMBEDDING_MODEL, ...(config.EMBEDDING_API_KEY && { apiKey: config.EMBEDDING_API_KEY }) }) : undefined;
    const workers = startWorkers({ ...services, ...research, ...(embeddings && { embeddings }), researchLimits, planCountdownMs: config.PLAN_COUNTDOWN_SECONDS * 1000 });
    stops.push(() => workers.close(), () => research.close());
    const progress = runner ?? new RemoteProjectionProgress(services.readStore, projections.map((projection) => projection.name), services.progress);
    // The read models must have caught up before they can say which replies were running.
    void progress
      .waitFor(await services.events.headPosition(), 120_000)
      .then(() => Promise.all([requeueRunningReplies(services), requeueRunningExtractions(services), requeueRunningDeckReviews(services), requeueRunningDemos(services)]))
      .catch((error) => log.error({ err: error }, 'could not requeue interrupted replies'));
  }
  if (roles.includes('api')) {
    if (config.ADMIN_USERNAME && config.ADMIN_PASSWORD) {
      const outcome = await seedAdmin(services, { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD, email: config.ADMIN_EMAIL }, { now: services.clock() });
      log.info({ admin: config.ADMIN_USERNAME, outcome }, 'administrator seeded');
    }
    const progress = runner ?? new RemoteProjectionProgress(services.readStore, projections.map((projection) => projection.name), services.progress);
    const api = await createApi(services, progress, { runner });
    const { app } = api;
    const server = app.listen(config.PORT, config.HOST);
    // A client or proxy must be the one to close an idle connection: when the server's idle timer
    // (Node's 5 s) fires as a client reuses the socket, the request is reset ("fetch failed", a 502 at
    // a proxy). Longer than the idle timeouts of fetch (4 s) and of common proxies and balancers (60 s).
    server.keepAliveTimeout = IDLE_CONNECTION_MS;
    server.headersTimeout = IDLE_CONNECTION_MS + 1_000;
    await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    log.info({ port, roles, eventStore: config.EVENTSTORE_URL ? 'eventstoredb' : config.DATABASE_URL ? 'postgresql' : 'sqlite', readStore: config.MONGO_URL ? 'mongodb' : config.DATABASE_URL ? 'postgresql' : 'sqlite', queue: config.REDIS_URL ? 'bullmq' : 'in-process', model: services.model.offline ? 'offline' : services.model.name }, `Scriptorium listening on http://localhost:${port}`);
    stops.unshift(async () => {
      await api.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    for (const stop of stops) await stop().catch((error) => log.error({ err: error }, 'stop failed'));
    await closeServices(services);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  exitWithParent(shutdown);
}

/**
 * A supervisor that cannot be sure to signal us when it dies (a test runner killed on a timeout)
 * names itself in `EXIT_WITH_PARENT_PID`; once that process is gone we are re-parented and stop, so
 * no server outlives the test that started it.
 */
function exitWithParent(shutdown: (signal: string) => Promise<void>): void {
  const raw = process.env['EXIT_WITH_PARENT_PID'];
  if (!raw) return;
  const parent = Number(raw);
  if (!Number.isInteger(parent) || parent <= 0) {
    process.stderr.write(`configuration error: EXIT_WITH_PARENT_PID must be a process id (got ${raw})\n`);
    process.exit(1);
  }
  const check = () => {
    if (process.ppid !== parent) void shutdown('parent exited');
  };
  check();
  setInterval(check, 500).unref();
}

await main();
