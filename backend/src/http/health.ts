import { statfs } from 'node:fs/promises';
import Router from '@koa/router';
import client from 'prom-client';
import { JOB_DISPATCH } from '@scriptorium/domain/jobs/dispatch';
import { reactorCheckpoint } from '@scriptorium/infra/eventsourcing/reactor';
import { createProjections } from '@scriptorium/projections/index';
import type { Services } from '../services.ts';
import { metricsAccess } from './security.ts';

export const metrics = new client.Registry();
client.collectDefaultMetrics({ register: metrics });

export const httpDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers: [metrics],
});

const headPosition = new client.Gauge({ name: 'eventstore_head_position', help: 'Position of the newest event', registers: [metrics] });

async function probe(check: () => Promise<void>): Promise<{ ok: boolean; error?: string }> {
  try {
    await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out after 2 s')), 2000).unref())]);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

type Check = { ok: boolean; error?: string } & Record<string, unknown>;

/**
 * Whether the read models keep up with the log, engine-independently (positions are byte offsets on
 * EventStoreDB, so a count of positions means nothing): lagging is being still short of a log head
 * this process saw at least `maxLagMs` ago. A stopped projector is caught as soon as anything is written.
 */
class LagWatch {
  private samples: Array<{ at: number; head: number }> = [];
  constructor(
    private readonly maxLagMs: number,
    /** What lags, as the error names it. */
    private readonly what: string,
  ) {}

  check(now: number, head: number, checkpoint: number): Check {
    this.samples.push({ at: now, head });
    const due = this.samples.filter((sample) => sample.at <= now - this.maxLagMs);
    // Samples older than the newest due one can tell nothing more: a checkpoint past it is past them.
    this.samples = this.samples.slice(Math.max(0, due.length - 1));
    const behind = due.at(-1);
    const ok = !behind || checkpoint >= behind.head;
    return { ok, head, checkpoint, ...(!ok && { error: `${this.what} ${checkpoint}, short of the head ${behind!.head} seen ${Math.round((now - behind!.at) / 1000)} s ago` }) };
  }
}

/**
 * `/healthz` (liveness: the process answers and its engines ping) and `/readyz` (readiness: also free
 * disk space on DATA_DIR and projection lag) and `/metrics` sit outside `/backend` so load balancers,
 * orchestrators and Prometheus find them at the usual paths.
 */
export function healthRoutes(services: Services, extraGauges: (registry: client.Registry) => Promise<void> = async () => {}): Router {
  const router = new Router();
  const { config } = services;
  const projections = createProjections({ timeZone: config.TIME_ZONE }).map((projection) => projection.name);
  const lag = new LagWatch(config.READY_MAX_LAG_SECONDS * 1000, 'the read models are at');
  // Only a projector role dispatches agent jobs: without one running, research starts and nothing answers.
  const dispatchLag = new LagWatch(config.READY_MAX_LAG_SECONDS * 1000, 'job dispatch (run by the projector role) is at');

  const disk = async (): Promise<Check> => {
    const stats = await statfs(config.DATA_DIR);
    const freeMb = Math.floor((stats.bavail * stats.bsize) / 1024 / 1024);
    const ok = freeMb >= config.READY_MIN_FREE_MB;
    return { ok, path: config.DATA_DIR, free_mb: freeMb, min_free_mb: config.READY_MIN_FREE_MB, ...(!ok && { error: `${freeMb} MB free, below ${config.READY_MIN_FREE_MB} MB` }) };
  };
  const projection = async (): Promise<Check> => {
    const [head, checkpoints] = await Promise.all([services.events.headPosition(), Promise.all(projections.map((name) => services.readStore.getCheckpoint(name)))]);
    return lag.check(Date.now(), head, Math.min(...checkpoints));
  };
  const dispatch = async (): Promise<Check> => {
    const [head, checkpoint] = await Promise.all([services.events.headPosition(), services.readStore.getCheckpoint(reactorCheckpoint(JOB_DISPATCH))]);
    return dispatchLag.check(Date.now(), head, checkpoint);
  };
  const settled = async (check: () => Promise<Check>): Promise<Check> => {
    let result: Check | undefined;
    const probed = await probe(async () => {
      result = await check();
    });
    return probed.ok ? result! : probed;
  };

  router.get('/readyz', async (ctx) => {
    const engines = { eventStore: config.EVENTSTORE_URL ? 'eventstoredb' : config.DATABASE_URL ? 'postgresql' : 'sqlite', readStore: config.MONGO_URL ? 'mongodb' : config.DATABASE_URL ? 'postgresql' : 'sqlite', queue: config.REDIS_URL ? 'bullmq' : 'in-process' };
    const [eventStore, readStore, queue, space, projectionLag, dispatchProgress] = await Promise.all([
      probe(() => services.events.ping()),
      probe(() => services.readStore.ping()),
      probe(() => services.queue.ping()),
      settled(disk),
      settled(projection),
      settled(dispatch),
    ]);
    const checks: Record<string, Check> = { eventStore: { ...eventStore, engine: engines.eventStore }, readStore: { ...readStore, engine: engines.readStore }, queue: { ...queue, engine: engines.queue }, disk: space, projections: projectionLag, dispatch: dispatchProgress };
    const failing = Object.entries(checks)
      .filter(([, check]) => !check.ok)
      .map(([name]) => name);
    ctx.status = failing.length === 0 ? 200 : 503;
    ctx.body = { status: failing.length === 0 ? 'ready' : 'not_ready', failing, checks };
  });
  router.get('/healthz', async (ctx) => {
    const [eventStore, readStore, queue] = await Promise.all([probe(() => services.events.ping()), probe(() => services.readStore.ping()), probe(() => services.queue.ping())]);
    const ok = eventStore.ok && readStore.ok && queue.ok;
    ctx.status = ok ? 200 : 503;
    ctx.body = { status: ok ? 'ok' : 'degraded', eventStore, readStore, queue };
  });
  router.get('/metrics', metricsAccess(services.config), async (ctx) => {
    headPosition.set(await services.events.headPosition());
    await extraGauges(metrics);
    ctx.type = metrics.contentType;
    ctx.body = await metrics.metrics();
  });
  return router;
}
