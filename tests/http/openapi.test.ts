import test from 'ava';
import Router from '@koa/router';
import { compileErrors, validate } from '@readme/openapi-parser';
import { createApi } from '@scriptorium/backend/http/server';
import { openApiDocument, routesOf } from '@scriptorium/backend/http/openapi';
import { client, startTestApp, type TestApp } from '../support/app.ts';

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
    t.is(documented, routes.length);
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
  t.is(document.components.responses['422'].content['application/json'].schema.$ref, '#/components/schemas/ValidationError');
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
    const response = await fetch(`${app.url}${asset}`);
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
