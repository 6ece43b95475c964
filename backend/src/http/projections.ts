import Router from '@koa/router';
import { z } from 'zod';
import { createProjections } from '@scriptorium/projections/index';
import type { ProjectionRunner } from '@scriptorium/projections/runner';
import { verifyProjection } from '@scriptorium/projections/verify';
import type { Services } from '../services.ts';
import { requireAdmin } from './authenticate.ts';
import { contract } from './contract.ts';
import { readModels, rebuildStarted, verifyReport } from '@scriptorium/domain/protocol/http/admin';
import { httpError } from './errors.ts';
import { parseParams } from './validate.ts';

const nameParam = z.object({ name: z.string().min(1).max(64) });

/**
 * The read models in the admin console: where each stands, a rebuild (by the runner of this
 * process, which then replays the log into it), and a verify against a shadow rebuild.
 * `runner` is absent when the projector runs in another process: rebuilds happen there.
 */
export function projectionRoutes(services: Services, runner: ProjectionRunner | undefined): Router {
  const router = new Router();
  const projections = createProjections({ timeZone: services.config.TIME_ZONE });
  const named = (name: string) => {
    const projection = projections.find((candidate) => candidate.name === name);
    if (!projection) throw httpError(404, 'admin.projection_unknown', { name });
    return projection;
  };

  router.get('/auth/admin/projections', contract({ access: 'admin', summary: 'Every read model with its checkpoint and the head of the log', responses: { 200: readModels } }), async (ctx) => {
    await requireAdmin(services, ctx);
    const head = await services.events.headPosition();
    const status = runner?.status(head);
    const rows = await Promise.all(
      projections.map(async (projection) => ({
        name: projection.name,
        collections: projection.collections,
        checkpoint: status?.projections[projection.name]?.checkpoint ?? (await services.readStore.getCheckpoint(projection.name)),
        failing: status?.projections[projection.name]?.failing ?? null,
      })),
    );
    ctx.body = { head, rebuild_here: runner !== undefined, projections: rows };
  });

  router.post('/auth/admin/projections/:name/rebuild', contract({ access: 'admin', summary: 'Reset one read model; the projector replays the log into it (poll the list for progress)', params: nameParam, responses: { 200: rebuildStarted }, refusals: [409] }), async (ctx) => {
    await requireAdmin(services, ctx);
    const projection = named(parseParams(ctx.params, nameParam).name);
    if (!runner) throw httpError(409, 'admin.rebuild_elsewhere');
    await runner.rebuild(projection.name);
    ctx.body = { name: projection.name, head: await services.events.headPosition(), checkpoint: 0 };
  });

  router.post('/auth/admin/projections/:name/verify', contract({ access: 'admin', summary: 'Rebuild one read model into a shadow store and list every document that differs from the live one', params: nameParam, responses: { 200: verifyReport } }), async (ctx) => {
    await requireAdmin(services, ctx);
    const projection = named(parseParams(ctx.params, nameParam).name);
    ctx.body = await verifyProjection(services.events, services.readStore, projection);
  });

  return router;
}
