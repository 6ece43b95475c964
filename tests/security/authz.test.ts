import test from 'ava';
import { dayKey } from '@scriptorium/infra/time';
import { client, signUp, startTestApp, type TestApp } from '../support/app.ts';
import { acceptable, declaredRoutes, fillPath, send, type Route } from '../support/routes.ts';
import { inputSchema, sample } from '../support/schemas.ts';
import { buildWorld, type World } from '../support/world.ts';
import { PASSWORD, TABLE, type Entry, type Ids, type Outcome, type Role } from '../support/matrix.ts';

/**
 * The authorisation matrix, generated from the router: every declared route × every kind of caller.
 * What each caller should get follows from the route's declared `access` and from whether the request
 * names something of alice's; the table (`tests/support/matrix.ts`) only says how to fill each route and
 * where a route is an exception. A route the table does not know fails the suite.
 * Path parameters are alice's real ids, so "other" and "admin" meet her resources, not missing ones.
 */

/** What `access` and ownership imply for a caller; the table's `expect` overrides. */
function expected(route: Route, entry: Entry, role: Role): Outcome {
  const override = entry.expect?.[role];
  if (override) return override;
  const { access } = route.declared;
  if (access === 'public') return 'ok';
  if (access === 'optional') return entry.owned && role !== 'user' ? 'denied' : 'ok';
  if (role === 'anonymous') return 401;
  if (role === 'inactive') return 403;
  if (access === 'admin') return role === 'admin' ? 'ok' : 403;
  if (access === 'auditor') return role === 'admin' || role === 'auditor' ? 'ok' : 403;
  return entry.owned && role !== 'user' ? 'denied' : 'ok';
}

const ROLES: Role[] = ['anonymous', 'inactive', 'other', 'auditor', 'admin', 'user'];
const USERNAMES: Record<Exclude<Role, 'anonymous'>, string> = { user: 'alice', other: 'bob', admin: 'root', inactive: 'dora', auditor: 'eve' };

let app: TestApp;
let routes: Route[];
let world: World;
let ids: Ids;
const tokens = {} as Record<Role, string | undefined>;

test.before(async () => {
  app = await startTestApp({ ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password' });
  routes = await declaredRoutes(app);
  const alice = await signUp(app.url, 'alice', PASSWORD);
  world = await buildWorld(app.url, alice, '权限矩阵的材料');
  ids = { alice: alice.userId, claim: `view_cognition-${dayKey(new Date(), app.services.config.TIME_ZONE).replaceAll('-', '')}` };
  tokens.user = alice.token;
  tokens.other = (await signUp(app.url, 'bob', PASSWORD)).token;
  const dora = await signUp(app.url, 'dora', PASSWORD);
  tokens.inactive = dora.token;
  tokens.admin = await login('admin');
  // An auditor reads any stream through the audit routes, and is an ordinary stranger everywhere else.
  const eve = await signUp(app.url, 'eve', PASSWORD);
  tokens.auditor = eve.token;
  const granted = await client(app.url, tokens.admin).request('POST', `/backend/auth/admin/users/${eve.userId}/auditor`, { auditor: true });
  if (granted.status !== 200) throw new Error(`could not make eve an auditor: ${granted.status}`);
  const off = await client(app.url, tokens.admin).request('PUT', `/backend/auth/admin/users/${dora.userId}/active`, { is_active: false });
  if (off.status !== 200) throw new Error(`could not deactivate dora: ${off.status}`);
});
test.after.always(async () => {
  await app?.stop();
});

async function login(role: Exclude<Role, 'anonymous'>): Promise<string> {
  const password = role === 'admin' ? 'root-password' : PASSWORD;
  return (await client(app.url).request('POST', '/backend/auth/login', { username: USERNAMES[role], password }, { form: true })).body.access_token;
}

function schemaBody(route: Route): unknown {
  const schema = route.declared.body ?? route.declared.multipart;
  return schema ? sample(inputSchema(schema)) : undefined;
}

test.serial('every declared route has an entry in the matrix, and every entry a route', (t) => {
  const keys = new Set(routes.map((route) => route.key));
  t.deepEqual(
    routes.filter((route) => !TABLE[route.key]).map((route) => route.key),
    [],
    'a new route needs an entry in TABLE: how to fill it and who may call it',
  );
  t.deepEqual(
    Object.keys(TABLE).filter((key) => !keys.has(key)),
    [],
    'an entry for a route that no longer exists',
  );
});

/** Alice's run goes last and deletes last (deepest path first), so the others meet every resource of hers still there. */
const order = (list: Route[]) => [...list].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE') || (a.method === 'DELETE' ? b.path.length - a.path.length : 0));

/** Demos the matrix itself started: their jobs append in the background, which no refusal caused. */
const demoStreams = new Set<string>();
const appendedSince = async (position: number) =>
  (await app.services.events.readAll({ after: position })).filter((event) => !demoStreams.has(event.streamId)).map((event) => `${event.streamId} ${event.type}`);

for (const role of ROLES) {
  test.serial(`every route, as ${role}`, async (t) => {
    for (const route of order(routes)) {
      const entry = TABLE[route.key];
      if (!entry) continue;
      const want = expected(route, entry, role);
      const token = role === 'anonymous' ? undefined : entry.freshToken ? await login(role) : tokens[role];
      const query = entry.query ? `?${new URLSearchParams(entry.query(world))}` : '';
      const url = fillPath(route.path, entry.params?.(world, ids) ?? {}) + query;
      const value = entry.body ? entry.body(world, ids) : schemaBody(route);
      await app.settle();
      const before = await app.services.events.headPosition();
      const response = await send(app.url, token, route, url, { value });
      const label = `${role} ${route.key} → ${response.status} ${JSON.stringify(response.body).slice(0, 160)}`;
      if (route.key === 'POST /backend/api/ai-engineer/start-demo' && typeof response.body?.session_id === 'string') demoStreams.add(`engineer-${response.body.session_id}`);
      t.true(acceptable(route, response.status), `never a server fault: ${label}`);
      if (want === 'ok') {
        t.false([401, 403].includes(response.status), label);
        if (role === 'user' && entry.owned && !entry.mayBeMissing) t.not(response.status, 404, `alice's own resource is found: ${label}`);
        continue;
      }
      if (want === 'denied') t.true([403, 404].includes(response.status), label);
      else t.is(response.status, want, label);
      // The OpenAI-compatible routes carry it inside OpenAI's `{error}`.
      t.is(typeof (response.body?.code ?? response.body?.error?.code), 'string', `a refusal carries its code: ${label}`);
      await app.settle();
      t.deepEqual(await appendedSince(before), [], `a refusal changes nothing: ${label}`);
    }
  });
}
