import test from 'ava';
import { startProcessManagers } from '@scriptorium/backend/processes';
import { checkedFetch, startTestApp } from '../support/app.ts';

const ready = async (url: string) => {
  const response = await checkedFetch(`${url}/readyz`);
  return { status: response.status, body: (await response.json()) as any };
};

test('/readyz is ready with every check passing, and names each engine', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const answer = await ready(app.url);
  t.is(answer.status, 200, JSON.stringify(answer.body));
  t.like(answer.body, { status: 'ready', failing: [], checks: { eventStore: { ok: true, engine: 'sqlite' }, readStore: { ok: true, engine: 'sqlite' }, queue: { ok: true, engine: 'in-process' }, disk: { ok: true }, projections: { ok: true }, dispatch: { ok: true } } });
  t.true(answer.body.checks.disk.free_mb > 0);
});

test('/readyz is 503 naming the disk when DATA_DIR has less free space than required, while /healthz stays 200', async (t) => {
  const app = await startTestApp({ READY_MIN_FREE_MB: String(1024 * 1024 * 1024) });
  t.teardown(() => app.stop());
  const answer = await ready(app.url);
  t.is(answer.status, 503);
  t.deepEqual(answer.body.failing, ['disk']);
  t.regex(answer.body.checks.disk.error, /MB free, below/);
  t.is((await checkedFetch(`${app.url}/healthz`)).status, 200);
});

test('/readyz is 503 naming the projections when no projector follows the log', async (t) => {
  const app = await startTestApp({ READY_MAX_LAG_SECONDS: '0' });
  t.teardown(() => app.stop());
  t.is((await ready(app.url)).status, 200);
  await app.runner.stop();
  // Anything written now stays unprojected.
  await app.services.events.appendToStream('readiness-probe', [{ type: 'ReadinessProbed', data: {}, metadata: { at: new Date().toISOString() } }]);
  const answer = await ready(app.url);
  t.is(answer.status, 503);
  t.deepEqual(answer.body.failing, ['projections']);
  t.true(answer.body.checks.projections.checkpoint < answer.body.checks.projections.head);
});

test('/readyz is 503 naming dispatch when no job dispatcher follows the log', async (t) => {
  const app = await startTestApp({ READY_MAX_LAG_SECONDS: '0' });
  t.teardown(() => app.stop());
  t.is((await ready(app.url)).status, 200);
  // The running process managers of this app's services: the job dispatcher stops with them.
  await (await startProcessManagers(app.services)).stop();
  await app.services.events.appendToStream('readiness-probe', [{ type: 'ReadinessProbed', data: {}, metadata: { at: new Date().toISOString() } }]);
  await app.runner.waitFor(await app.services.events.headPosition());
  const answer = await ready(app.url);
  t.is(answer.status, 503);
  t.deepEqual(answer.body.failing, ['dispatch']);
  t.regex(answer.body.checks.dispatch.error, /job dispatch \(run by the projector role\) is at/);
});
