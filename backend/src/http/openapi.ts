import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import { z } from 'zod';
import { contract, contractOf, type Contract, type Reply, type SuccessStatus } from './contract.ts';
import { parseParams } from './validate.ts';
import { openAiErrorBody } from './openai.ts';
import { oauthErrorBody } from '@scriptorium/domain/protocol/http/oauth';

/** A JSON Schema or a piece of the OpenAPI document; both are plain JSON here. */
type Json = Record<string, unknown>;

/** What every refusal looks like, and what a 422 carries instead: FastAPI's list, so the client joins `loc` and `msg`. */
const errorParams = z.record(z.string(), z.union([z.string(), z.number()])).optional();
const errorBody = z
  .object({ detail: z.string(), code: z.string(), params: errorParams })
  .meta({ description: 'A refusal: the catalogue code (stable, for the client to word in its language), its parameters, and the Chinese text' });
const validationBody = z
  .object({ detail: z.array(z.object({ loc: z.array(z.union([z.string(), z.number().int()])), msg: z.string(), type: z.string(), code: z.string(), params: errorParams })) })
  .meta({ description: 'Each field that failed validation, located as body, query or path followed by the field' });

/** This document, as far as its own description goes: OpenAPI 3.1 describes itself. */
const openApiShape = z
  .looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.record(z.string(), z.unknown())), components: z.record(z.string(), z.unknown()) })
  .meta({ description: 'An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0)' });

const REFUSALS: Record<number, string> = {
  400: 'The body is not valid JSON or not a complete form',
  401: 'No valid bearer token',
  402: 'The token budget is exhausted',
  403: 'Not allowed: an inactive account, not an administrator, or not the owner',
  404: 'Not found, or not yours',
  409: 'Conflicts with the current state',
  413: 'The body is too large',
  415: 'The body is of a type the route does not take',
  429: 'Too many attempts; Retry-After says when to try again',
  501: 'The service behind this route is not configured',
  507: 'The server’s storage is full: nothing was saved',
  502: 'The service behind this route failed',
  503: 'Temporarily unavailable',
};

const toJson = (schema: z.ZodType, io: 'input' | 'output'): Json => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return rest;
};
/** Requests are described as the client sends them: before defaults and transforms apply. */
const jsonSchema = (schema: z.ZodType): Json => toJson(schema, 'input');
/** Replies as the server sends them: after defaults, and closed (a field the schema does not name is drift). */
const outputSchema = (schema: z.ZodType): Json => toJson(schema, 'output');

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const operationId = (method: string, path: string) =>
  method + path.replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase());

/** The first path part that names a subject, not a version or a mount point. */
const tagOf = (path: string) => path.split('/').find((part) => part && !['backend', 'api', 'conversation', 'v1', 'v2'].includes(part) && !part.startsWith(':')) ?? 'root';

/** Path parameters a route does not validate are still in its path, as plain strings. */
const pathStrings = (path: string): Json => ({ properties: Object.fromEntries([...path.matchAll(/:(\w+)/g)].map(([, name]) => [name, { type: 'string' }])) });

function parameters(where: 'path' | 'query', schema: z.ZodType | undefined, path: string): Json[] {
  const json: Json = schema ? jsonSchema(schema) : where === 'path' ? pathStrings(path) : {};
  const properties = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, in: where, required: where === 'path' || required.has(name), schema: property }));
}

function requestBody(declared: Contract): Json | undefined {
  if (declared.multipart) {
    const fields = jsonSchema(declared.multipart);
    const schema = { ...fields, properties: { ...(fields.properties as object), file: { type: 'string', contentMediaType: 'application/octet-stream' } }, required: [...((fields.required as string[]) ?? []), 'file'] };
    return { required: true, content: { 'multipart/form-data': { schema } } };
  }
  if (!declared.body) return undefined;
  const schema = jsonSchema(declared.body);
  const form = { 'application/x-www-form-urlencoded': { schema } };
  return { required: true, content: declared.form === 'only' ? form : { 'application/json': { schema }, ...(declared.form && form) } };
}

const SUCCESS_TEXT: Record<SuccessStatus, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted: the work goes on after the answer', 204: 'No content' };

/** Array.isArray does not narrow a readonly list out of a union. */
const isList = (declared: Reply | readonly Reply[]): declared is readonly Reply[] => Array.isArray(declared);

function success(status: SuccessStatus, declared: Reply | readonly Reply[]): Json {
  if (isList(declared)) {
    const each = declared.map((reply) => success(status, reply));
    return { description: each.map((one) => one.description).join('; '), content: Object.assign({}, ...each.map((one) => one.content)) };
  }
  const reply = declared;
  const description = (reply && !(reply instanceof z.ZodType) && reply.description) || SUCCESS_TEXT[status];
  if (reply === null) return { description };
  if (reply instanceof z.ZodType) return { description, content: { 'application/json': { schema: outputSchema(reply) } } };
  const types = Array.isArray(reply.type) ? reply.type : [reply.type];
  const schema = (type: string) => (reply.item ? { type: 'string', contentMediaType: type, contentSchema: outputSchema(reply.item) } : { type: 'string', contentMediaType: type });
  return { description, content: Object.fromEntries(types.map((type) => [type, { schema: schema(type) }])) };
}

function responses(method: string, path: string, declared: Contract): Json {
  const declaredSuccess = Object.entries(declared.responses) as unknown as Array<[SuccessStatus, Reply | readonly Reply[]]>;
  if (declaredSuccess.length === 0) throw new Error(`${method.toUpperCase()} ${path} declares no success: name each status it answers in responses`);
  const successes = Object.fromEntries(declaredSuccess.map(([status, reply]) => [String(status), success(status, reply)]));
  const statuses = new Set(declared.refusals ?? []);
  // A path parameter names something, which may not exist or not be the caller's.
  if (/:\w/.test(path)) statuses.add(404);
  if (declared.body || declared.multipart) [400, 413, 415].forEach((status) => statuses.add(status));
  if (declared.access !== 'public' && declared.access !== 'optional') [401, 403].forEach((status) => statuses.add(status));
  // A write that finds the disk full is refused (507) with nothing saved; a read never writes.
  if (method !== 'get') statuses.add(507);
  const validated = Boolean(declared.params || declared.query || declared.body || declared.multipart);
  if (declared.errors === 'openai') {
    if (validated) statuses.add(400);
    const refusal = (status: number) => [String(status), { $ref: `#/components/responses/OpenAI${status}` }];
    return { ...successes, ...Object.fromEntries([...statuses, 500].sort((a, b) => a - b).map(refusal)) };
  }
  if (declared.errors === 'oauth') {
    // The endpoint's own refusals are the RFC's; a body too large or a failure never reaches it and keeps the api's shape.
    const refusal = (status: number) => [String(status), { $ref: `#/components/responses/${status === 400 || status === 401 ? 'OAuth' : ''}${status}` }];
    statuses.delete(415);
    return { ...successes, ...Object.fromEntries([...statuses, 500].sort((a, b) => a - b).map(refusal)) };
  }
  const refusals = [...statuses].sort((a, b) => a - b).map((status) => [String(status), { $ref: `#/components/responses/${status}` }]);
  return {
    ...successes,
    ...Object.fromEntries(refusals),
    ...(validated && { 422: { $ref: '#/components/responses/422' } }),
    500: { $ref: '#/components/responses/500' },
  };
}

function operation(method: string, path: string, declared: Contract): Json {
  const security = { public: [], user: [{ bearer: [] }], admin: [{ bearer: [] }], auditor: [{ bearer: [] }], optional: [{}, { bearer: [] }] }[declared.access];
  const parameterList = [...parameters('path', declared.params, path), ...parameters('query', declared.query, path)];
  const body = requestBody(declared);
  return {
    operationId: operationId(method, path),
    tags: [tagOf(path)],
    ...(declared.summary && { summary: declared.summary }),
    ...(declared.access === 'admin' && { description: 'Administrators only.' }),
    ...(declared.access === 'auditor' && { description: 'Auditors and administrators only; every call is recorded as an audit read.' }),
    security,
    ...(parameterList.length > 0 && { parameters: parameterList }),
    ...(body && { requestBody: body }),
    responses: responses(method, path, declared),
  };
}

/** Routes of a router as "METHOD /path"; HEAD is implied by GET. */
export function routesOf(router: Router): Array<{ method: string; path: string; declared: Contract | undefined }> {
  return router.stack.flatMap((layer) =>
    layer.methods.filter((method) => method !== 'HEAD').map((method) => ({ method: method.toLowerCase(), path: String(layer.path), declared: contractOf(layer) })),
  );
}

/**
 * The OpenAPI 3.1 document of a router and of the few routes outside `/backend` a client calls (the
 * OAuth metadata); a route without a contract, or one that names no success, is a programming error, refused here.
 */
/**
 * A schema the protocol names (`.meta({ id })`, the stream items of a history say) is written once in
 * `components/schemas` and referred to from every operation, instead of once per operation in its
 * own `$defs`: the document stays small and a validator compiles it once.
 */
function hoistDefinitions(node: unknown, shared: Record<string, Json>): unknown {
  if (Array.isArray(node)) return node.map((item) => hoistDefinitions(item, shared));
  if (node === null || typeof node !== 'object') return node;
  const { $defs: definitions, ...rest } = node as Json;
  for (const [name, definition] of Object.entries((definitions ?? {}) as Record<string, Json>)) {
    const hoisted = hoistDefinitions(definition, shared) as Json;
    if (shared[name] && JSON.stringify(shared[name]) !== JSON.stringify(hoisted)) throw new Error(`The schema ${name} is described two ways (as a request and as a reply?): give each its own id`);
    shared[name] = hoisted;
  }
  return Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? value.replace(/^#\/\$defs\//, '#/components/schemas/') : hoistDefinitions(value, shared)]),
  );
}

export function openApiDocument(router: Router, outside: Router[] = []): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const { method, path, declared } of [router, ...outside].flatMap(routesOf)) {
    if (!declared) throw new Error(`${method.toUpperCase()} ${path} has no contract: declare one with contract({...}) beside the route`);
    (paths[toOpenApiPath(path)] ??= {})[method] = operation(method, path, declared);
  }
  const shared: Record<string, Json> = {};
  const described = hoistDefinitions(paths, shared) as typeof paths;
  const refusal = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
  const openAiRefusal = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/OpenAIError' } } } });
  const openAiRefusals = { ...REFUSALS, 400: 'The body is not valid JSON, or a parameter is invalid (named in `param`)', 500: 'Internal error; details are only in the server log' };
  return {
    openapi: '3.1.0',
    info: { title: 'Scriptorium API', version: '1', description: 'Every refusal is `{detail, code, params?}` with the catalogue status; a 422 lists each failing field with its own code. The OpenAI-compatible routes (`/backend/engineer/v1/…`) refuse in OpenAI’s shape `{error: {message, type, code, param}}` instead.' },
    servers: [{ url: '/' }],
    paths: described,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { ...shared, Error: jsonSchema(errorBody), ValidationError: jsonSchema(validationBody), OpenAIError: jsonSchema(openAiErrorBody), OAuthError: outputSchema(oauthErrorBody) },
      responses: {
        OAuth400: { description: 'RFC 6749 §5.2: the request is malformed, or the grant, code or refresh token is not valid', content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } } },
        OAuth401: { description: 'RFC 6749 §5.2: the client is unknown', content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } } },
        ...Object.fromEntries(Object.entries(REFUSALS).map(([status, description]) => [status, refusal(description)])),
        ...Object.fromEntries(Object.entries(openAiRefusals).map(([status, description]) => [`OpenAI${status}`, openAiRefusal(description)])),
        // A field the schema refuses comes as the list; a value the domain's rules refuse (a version ahead of the document, say) as one coded refusal.
        422: { description: 'Validation failed: each field the schema refuses, or one value the rules refuse', content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/ValidationError' }, { $ref: '#/components/schemas/Error' }] } } } },
        500: refusal('Internal error; details are only in the server log'),
      },
    },
  };
}

const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
/** The only files the docs page loads, all from this origin: the product runs offline under a strict CSP. */
const DOCS_ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: join(SWAGGER_UI, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: join(SWAGGER_UI, 'swagger-ui-bundle.js'), type: 'application/javascript; charset=utf-8' },
  'init.js': { file: fileURLToPath(new URL('./docs-init.js', import.meta.url)), type: 'application/javascript; charset=utf-8' },
};

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Scriptorium API</title>
<link rel="stylesheet" href="/backend/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/backend/docs/swagger-ui-bundle.js"></script>
<script src="/backend/docs/init.js"></script>
</body>
</html>
`;

/** `/openapi.json` and the page rendering it; the document is built once, from the router it is mounted on (and `outside`), on first request. */
export function openApiRoutes(api: Router, outside: Router[] = []): Router {
  const router = new Router();
  let document: Json | undefined;

  router.get('/openapi.json', contract({ access: 'public', summary: 'This document', responses: { 200: openApiShape } }), (ctx) => {
    document ??= openApiDocument(api, outside);
    ctx.body = document;
  });

  router.get('/docs', contract({ access: 'public', summary: 'The document rendered for people', responses: { 200: { type: 'text/html' } } }), (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = DOCS_PAGE;
  });

  const asset = z.object({ asset: z.enum(Object.keys(DOCS_ASSETS) as [string, ...string[]]) });
  router.get('/docs/:asset', contract({ access: 'public', summary: "The docs page's script and style", params: asset, responses: { 200: { type: 'application/octet-stream' } } }), (ctx) => {
    const found = DOCS_ASSETS[parseParams(ctx.params, asset).asset]!;
    ctx.type = found.type;
    // The bundle is large and changes only with the package, unlike everything else under /backend.
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = createReadStream(found.file);
  });

  return router;
}
