import Router from '@koa/router';
import client from 'prom-client';
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

/** `/healthz` and `/metrics` sit outside `/backend` so load balancers and Prometheus find them at the usual paths. */
export function healthRoutes(services: Services, extraGauges: (registry: client.Registry) => Promise<void> = async () => {}): Router {
  const router = new Router();
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
