import test from 'ava';
import Router from '@koa/router';
import { z } from 'zod';
import { contract } from '@scriptorium/backend/http/contract';
import { compileErrors, validate } from '@readme/openapi-parser';
import { createApi } from '@scriptorium/backend/http/server';
import { openApiDocument, routesOf } from '@scriptorium/backend/http/openapi';
import { client, checkedFetch, startTestApp, type TestApp } from '../support/app.ts';
import { conformance } from '../support/contract.ts';

let app: TestApp;
let document: any;
test.before(async () => {
  app = await startTestApp();
  document = (await client(app.url).request('GET', '/backend/openapi.json')).body;
});
test.after.always(async () => {
  await app?.stop();
});

const EXTERNAL = /(?:https?:)?\/\/(?!127\.0\.0\.1)[a-z0-9.-]+\.[a-z]{2,}/i;

test('the document served is valid OpenAPI 3.1', async (t) => {
  t.is(document.openapi, '3.1.0');
  // The validator dereferences in place; it gets a copy so the later tests see the document as served.
  const result = await validate(structuredClone(document));
  t.true(result.valid, result.valid ? '' : compileErrors(result));
});

test('every route of the api is in the document, with its method', async (t) => {
  const api = await createApi(app.services, app.runner);
  try {
    const routes = routesOf(api.router);
    t.true(routes.length > 100);
    for (const { method, path } of routes) t.truthy(document.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method], `${method.toUpperCase()} ${path}`);
    const documented = Object.values(document.paths).reduce((sum: number, item) => sum + Object.keys(item as object).length, 0);
    // And RFC 8414's metadata, outside /backend.
    t.truthy(document.paths['/.well-known/oauth-authorization-server']?.get);
    t.is(documented, routes.length + 1);
  } finally {
    await api.close();
  }
});

test('a route declared without a contract stops the document from being built', (t) => {
  const router = new Router({ prefix: '/backend' });
  router.get('/undeclared', (ctx) => {
    ctx.body = {};
  });
  t.throws(() => openApiDocument(router), { message: /GET \/backend\/undeclared has no contract/ });
});

test('operations carry their access, schemas and refusals', (t) => {
  const login = document.paths['/backend/auth/login'].post;
  t.deepEqual(login.security, []);
  t.deepEqual(Object.keys(login.requestBody.content), ['application/json', 'application/x-www-form-urlencoded']);
  t.deepEqual(login.requestBody.content['application/json'].schema.required, ['username', 'password']);
  t.truthy(login.responses['401']);

  const limit = document.paths['/backend/auth/admin/users/{id}/token-limit'].put;
  t.deepEqual(limit.security, [{ bearer: [] }]);
  t.deepEqual(limit.parameters.map((parameter: { name: string; in: string }) => [parameter.name, parameter.in]), [['id', 'path']]);
  t.is(limit.requestBody.content['application/json'].schema.properties.token_level_limit.type, 'integer');
  for (const status of ['401', '403', '404', '422', '500']) t.truthy(limit.responses[status], status);
  t.deepEqual(document.components.responses['422'].content['application/json'].schema.oneOf, [{ $ref: '#/components/schemas/ValidationError' }, { $ref: '#/components/schemas/Error' }]);
  t.deepEqual(document.components.schemas.Error.required, ['detail', 'code']);

  const history = document.paths['/backend/conversation/api/chats/my'].get;
  t.deepEqual(
    history.parameters.map((parameter: { name: string; in: string; schema: { default?: number } }) => [parameter.name, parameter.in, parameter.schema.default]),
    [
      ['skip', 'query', 0],
      ['limit', 'query', 20],
    ],
  );

  const upload = document.paths['/backend/conversation/v2/research/upload_file'].post;
  t.deepEqual(Object.keys(upload.requestBody.content), ['multipart/form-data']);
  t.true(upload.requestBody.content['multipart/form-data'].schema.required.includes('file'));
  t.truthy(document.paths['/backend/api/markdown-to-pdf'].post.responses['200'].content['application/pdf']);
  t.deepEqual(document.paths['/backend/api/cognition/{id}'].get.security, [{}, { bearer: [] }]);
});

test('the docs page renders the document from this origin only', async (t) => {
  const page = await client(app.url).request('GET', '/backend/docs');
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  t.notRegex(page.body, EXTERNAL);
  t.notRegex(page.body, /<script>|<script[^>]*>[^<]/, 'no inline script');
  const assets = [...(page.body as string).matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url!);
  t.deepEqual(assets.sort(), ['/backend/docs/init.js', '/backend/docs/swagger-ui-bundle.js', '/backend/docs/swagger-ui.css']);
  for (const asset of assets) {
    const response = await checkedFetch(`${app.url}${asset}`);
    t.is(response.status, 200, asset);
    t.regex(response.headers.get('content-type') ?? '', asset.endsWith('.css') ? /^text\/css/ : /^application\/javascript/);
    const text = await response.text();
    if (asset.endsWith('init.js')) {
      t.notRegex(text, EXTERNAL);
      t.regex(text, /url: '\/backend\/openapi\.json'/);
    }
  }
  t.is((await client(app.url).request('GET', '/backend/docs/package.json')).status, 422);
});

/** An operation whose success is JSON of any shape: the document cannot say what it returns. */
const undescribed = (operation: any) =>
  Object.entries(operation.responses as Record<string, any>).some(([status, response]) => status.startsWith('2') && response.content?.['application/json'] && Object.keys(response.content['application/json'].schema).length === 0);

test('every operation says what each of its successes returns', (t) => {
  const operations = Object.values(document.paths).flatMap((item: any) => Object.values(item)) as any[];
  t.deepEqual(operations.filter(undescribed).map((operation) => operation.operationId), []);
  for (const operation of operations) {
    const statuses = Object.keys(operation.responses);
    t.true(statuses.some((status) => status.startsWith('2')), operation.operationId);
  }
});

test('a route that names no success stops the document from being built', (t) => {
  const router = new Router({ prefix: '/backend' });
  router.get('/silent', contract({ access: 'public', responses: {} }), () => undefined);
  t.throws(() => openApiDocument(router), { message: /GET \/backend\/silent declares no success/ });
});

test('a handler answers through its contract, typed by the schema of the status it sends', (t) => {
  const route = contract({ access: 'public', responses: { 201: z.object({ id: z.string() }), 204: null } });
  const ctx = { status: 404, body: undefined as unknown };
  route.reply(ctx, 201, { id: 'a' });
  t.deepEqual(ctx, { status: 201, body: { id: 'a' } });
  // @ts-expect-error a field the schema does not name
  route.reply(ctx, 201, { id: 'a', secret: 'x' });
  // @ts-expect-error a status the contract does not declare
  route.reply(ctx, 200, { id: 'a' });
  // @ts-expect-error no body where the contract declares none
  route.reply(ctx, 204, {});
  route.reply({ status: 404, body: undefined }, 204);
});

test('the OAuth endpoints answer as the RFCs say', (t) => {
  const token = document.paths['/backend/oauth/token'].post;
  t.deepEqual(Object.keys(token.requestBody.content), ['application/x-www-form-urlencoded']);
  t.deepEqual(token.responses['200'].content['application/json'].schema.required, ['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope']);
  for (const status of ['400', '401']) t.is(token.responses[status].$ref, `#/components/responses/OAuth${status}`);
  t.deepEqual(document.components.schemas.OAuthError.required, ['error', 'code']);
  const revoke = document.paths['/backend/oauth/revoke'].post;
  t.is(revoke.responses['200'].content, undefined, 'an empty reply');
  t.deepEqual(Object.keys(revoke.requestBody.content), ['application/x-www-form-urlencoded']);
  const metadata = document.paths['/.well-known/oauth-authorization-server'].get;
  t.true(metadata.responses['200'].content['application/json'].schema.required.includes('issuer'));
});

test('an answer that drifts from the document fails the request that received it', (t) => {
  const router = new Router({ prefix: '/backend' });
  router.get('/thing/:id', contract({ access: 'public', params: z.object({ id: z.string() }), responses: { 200: z.object({ id: z.string(), size: z.number().int() }) } }), () => undefined);
  router.post('/thing', contract({ access: 'public', body: z.object({ name: z.string() }), responses: { 201: z.object({ id: z.string() }), 204: null } }), () => undefined);
  const check = conformance(openApiDocument(router));
  const json = (status: number, body: unknown) => ({ status, contentType: 'application/json; charset=utf-8', text: JSON.stringify(body), body });
  const url = (path: string) => `http://127.0.0.1/backend${path}`;

  t.notThrows(() => check.check('GET', url('/thing/a'), json(200, { id: 'a', size: 3 })));
  t.notThrows(() => check.check('GET', url('/thing/a'), json(404, { detail: '不存在', code: 'http.not_found' })));
  t.throws(() => check.check('GET', url('/thing/a'), json(200, { id: 'a' })), { message: /must have required property 'size'/ });
  t.throws(() => check.check('GET', url('/thing/a'), json(200, { id: 'a', size: 3, secret: 'x' })), { message: /additional properties 'secret'/ });
  t.throws(() => check.check('GET', url('/thing/a'), json(200, { id: 'a', size: 'big' })), { message: /\/size must be integer/ });
  t.throws(() => check.check('GET', url('/thing/a'), { status: 200, contentType: 'text/html', text: '<p>', body: '<p>' }), { message: /as text\/html/ });
  t.throws(() => check.check('GET', url('/thing/a'), json(409, { detail: 'x', code: 'y' })), { message: /answered 409, which the OpenAPI document does not declare/ });
  t.throws(() => check.check('GET', url('/thing/a'), json(404, { message: 'not the error shape' })), { message: /schema refuses/ });
  t.throws(() => check.check('POST', url('/thing'), json(200, { id: 'a' })), { message: /answered 200/ }, 'a 201 route answering 200 is drift too');
  t.notThrows(() => check.check('POST', url('/thing'), json(201, { id: 'a' })));
  t.notThrows(() => check.check('POST', url('/thing'), { status: 204, contentType: '', text: '', body: '' }));
  t.notThrows(() => check.check('GET', url('/elsewhere'), json(200, {})), 'a path the document does not describe is not checked');

  const streamed = new Router({ prefix: '/backend' });
  streamed.get('/events', contract({ access: 'public', responses: { 200: [z.object({ n: z.number() }), { type: 'text/event-stream', item: z.object({ n: z.number() }) }] } }), () => undefined);
  const events = conformance(openApiDocument(streamed));
  const stream = (text: string) => ({ status: 200, contentType: 'text/event-stream', text, body: text });
  t.notThrows(() => events.check('GET', url('/events'), stream('data: {"n":1}\n\ndata: {"n":2}\n\ndata: [DONE]\n\n')));
  t.notThrows(() => events.check('GET', url('/events'), json(200, { n: 1 })), 'the same status as JSON');
  t.throws(() => events.check('GET', url('/events'), stream('data: {"n":1}\n\ndata: {"n":"two"}\n\n')), { message: /an event its schema refuses/ });
});
