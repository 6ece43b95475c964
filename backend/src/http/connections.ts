import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { ParameterizedContext as Context } from 'koa';
import { z } from 'zod';
import { CONNECTIONS_STREAM, testKey, type ConnectionTarget, type ConnectionTest } from '@scriptorium/domain/connections/connections';
import { connectionsDecider, type ConnectionsCommand } from '@scriptorium/domain/connections/decide';
import { refuse } from '@scriptorium/domain/refuse';
import { probeModel, probeSearch, probeSmtp, probeSpeech, type ProbeResult } from '@scriptorium/infra/connections/probe';
import { MODEL_ROLES, profileFor, type ModelProfile, type ModelProfileOverride } from '@scriptorium/infra/model/profile';
import type { Services } from '../services.ts';
import { requireAdmin, type CurrentUser } from './authenticate.ts';
import { contract } from './contract.ts';
import {
  connectionsListing,
  connectionTestResult,
  endpointAdded,
  endpointBody,
  modelProfileQuery,
  modelProfileWire,
  modelTestResult,
  type profileOverride,
  searchConnectionBody,
  smtpConnectionBody,
  speechConnectionBody,
} from '@scriptorium/domain/protocol/http/connections';
import { parseBody, parseParams, parseQuery } from './validate.ts';

type ProfileWire = z.infer<typeof profileOverride>;

const idParam = z.object({ id: z.string().min(1).max(64) });

const toOverride = (wire: ProfileWire): ModelProfileOverride =>
  ({
    ...(wire.context_window !== undefined && { contextWindow: wire.context_window }),
    ...(wire.max_output_tokens !== undefined && { maxOutputTokens: wire.max_output_tokens }),
    ...(wire.reasoning !== undefined && { reasoning: wire.reasoning }),
    ...(wire.price && { price: { promptPerMillion: wire.price.prompt_per_million, completionPerMillion: wire.price.completion_per_million, currency: wire.price.currency } }),
  }) as ModelProfileOverride;

const toWire = (profile: Partial<ModelProfile>): ProfileWire => ({
  ...(profile.contextWindow !== undefined && { context_window: profile.contextWindow }),
  ...(profile.maxOutputTokens !== undefined && { max_output_tokens: profile.maxOutputTokens }),
  ...(profile.reasoning !== undefined && { reasoning: profile.reasoning }),
  ...(profile.price && { price: { prompt_per_million: profile.price.promptPerMillion, completion_per_million: profile.price.completionPerMillion, currency: profile.price.currency } }),
});

const testDto = (test: ConnectionTest | undefined) =>
  test ? { ok: test.ok, latency_ms: test.latencyMs, detail: test.result, by: test.by, at: test.at } : null;

/** What a given secret field asks for: keep (undefined), remove (null), or seal this text. */
const sealedOrKeep = (services: Services, value: string | null | undefined): string | null | undefined =>
  value === undefined ? undefined : value === null || value.trim() === '' ? null : services.connections.seal(value.trim());

/**
 * Connections, for administrators: model endpoints by role, the web search, SMTP and speech, each
 * with a test that makes one minimal real call. Keys go in and never come out: an answer says
 * whether one is set and its last four characters at most.
 */
export function connectionRoutes(services: Services): Router {
  const router = new Router();
  const live = services.connections;
  const admin = (ctx: Context) => requireAdmin(services, ctx);

  function listing() {
    const settings = live.settings();
    return {
      revision: live.revision,
      roles: MODEL_ROLES,
      models: settings.endpoints.map((endpoint) => ({
        id: endpoint.id,
        base_url: endpoint.baseUrl,
        model: endpoint.model,
        roles: endpoint.roles,
        profile: toWire(endpoint.profile),
        builtin_profile: toWire(profileFor(endpoint.model)),
        effective_profile: toWire(live.profileOf(endpoint)),
        key: live.hint(endpoint.encryptedKey),
        last_test: testDto(settings.tests[testKey('model', endpoint.id)]),
      })),
      search: settings.search ? { url: settings.search.url, last_test: testDto(settings.tests.search) } : null,
      smtp: settings.smtp ? { url: settings.smtp.url, from: settings.smtp.from, password: live.hint(settings.smtp.encryptedPassword), last_test: testDto(settings.tests.smtp) } : null,
      speech: settings.speech ? { base_url: settings.speech.baseUrl, model: settings.speech.model, key: live.hint(settings.speech.encryptedKey), last_test: testDto(settings.tests.speech) } : null,
    };
  }

  /** Appends at the stream's exact revision, then rebuilds this process's connections before answering. */
  async function run(actor: CurrentUser, command: Omit<ConnectionsCommand, 'metadata'>) {
    await services.commands.handle(connectionsDecider, CONNECTIONS_STREAM, { ...command, metadata: { now: services.clock(), userId: actor.id } } as ConnectionsCommand);
    await live.refresh();
  }

  async function record(actor: CurrentUser, target: ConnectionTarget, outcome: ProbeResult, endpointId?: string) {
    await run(actor, { type: 'RecordConnectionTest', data: { target, ...(endpointId && { endpointId }), ok: outcome.ok, latencyMs: outcome.latencyMs, result: outcome.detail, by: actor.id } });
    services.log.info({ connection: target, endpoint: endpointId, ok: outcome.ok, latencyMs: outcome.latencyMs }, 'connection tested');
  }

  /** A saved key this process cannot open would make the test a misleading 401: say why instead. */
  function openForTest(sealed: string | null): string | undefined {
    const plain = live.open(sealed);
    if (sealed !== null && plain === undefined) throw refuse('conflict', 'connections.key_unreadable');
    return plain;
  }

  const probeAnswer = (outcome: ProbeResult) => ({ ok: outcome.ok, latency_ms: outcome.latencyMs, detail: outcome.detail });

  router.get('/admin/connections', contract({ access: 'admin', summary: 'The connections: model endpoints, search, SMTP, speech (keys as hints only)', responses: { 200: connectionsListing } }), async (ctx) => {
    await admin(ctx);
    await live.refresh();
    ctx.body = listing();
  });

  router.get('/admin/connections/profile', contract({ access: 'admin', summary: 'The built-in profile of a model name', query: modelProfileQuery, responses: { 200: modelProfileWire } }), async (ctx) => {
    await admin(ctx);
    const { model } = parseQuery(ctx, modelProfileQuery);
    ctx.body = toWire(profileFor(model));
  });

  const endpointData = (body: z.infer<typeof endpointBody>) => ({ baseUrl: body.base_url, model: body.model, roles: body.roles, profile: toOverride(body.profile) });

  router.post('/admin/connections/models', contract({ access: 'admin', summary: 'Add a model endpoint', body: endpointBody, refusals: [409], responses: { 201: endpointAdded } }), async (ctx) => {
    const actor = await admin(ctx);
    const body = parseBody(ctx, endpointBody);
    const id = randomBytes(4).toString('hex');
    await run(actor, { type: 'ConfigureModelEndpoint', data: { id, ...endpointData(body), encryptedKey: sealedOrKeep(services, body.api_key) ?? null, by: actor.id } });
    ctx.status = 201;
    ctx.body = { id, ...listing() };
  });

  router.put('/admin/connections/models/:id', contract({ access: 'admin', summary: 'Change a model endpoint (a key left out stays as it is)', params: idParam, body: endpointBody, refusals: [404, 409], responses: { 200: connectionsListing } }), async (ctx) => {
    const actor = await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    const body = parseBody(ctx, endpointBody);
    const encryptedKey = sealedOrKeep(services, body.api_key);
    await run(actor, { type: 'ChangeModelEndpoint', data: { id, ...endpointData(body), ...(encryptedKey !== undefined && { encryptedKey }), by: actor.id } });
    ctx.body = listing();
  });

  router.delete('/admin/connections/models/:id', contract({ access: 'admin', summary: 'Remove a model endpoint', params: idParam, responses: { 200: connectionsListing } }), async (ctx) => {
    const actor = await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    await run(actor, { type: 'RemoveModelEndpoint', data: { id, by: actor.id } });
    ctx.body = listing();
  });

  router.post('/admin/connections/models/:id/test', contract({ access: 'admin', summary: 'Ask the endpoint for one token: who answered, how fast, with which profile', params: idParam, refusals: [404, 409], responses: { 200: modelTestResult } }), async (ctx) => {
    const actor = await admin(ctx);
    const { id } = parseParams(ctx.params, idParam);
    await live.refresh();
    const endpoint = live.settings().endpoints.find((candidate) => candidate.id === id);
    if (!endpoint) throw refuse('not_found', 'connections.endpoint_not_found');
    const apiKey = openForTest(endpoint.encryptedKey);
    const profile = live.profileOf(endpoint);
    const outcome = await probeModel({ baseUrl: endpoint.baseUrl, model: endpoint.model, profile, ...(apiKey && { apiKey }) });
    await record(actor, 'model', outcome, id);
    ctx.body = { ...probeAnswer(outcome), model: outcome.model ?? null, profile: toWire(profile) };
  });

  router.put('/admin/connections/search', contract({ access: 'admin', summary: 'Set the SearXNG instance', body: searchConnectionBody, responses: { 200: connectionsListing } }), async (ctx) => {
    const actor = await admin(ctx);
    const body = parseBody(ctx, searchConnectionBody);
    await run(actor, { type: 'SetSearchEngine', data: { url: body.url, by: actor.id } });
    ctx.body = listing();
  });

  router.delete('/admin/connections/search', contract({ access: 'admin', summary: 'Clear the web search', responses: { 200: connectionsListing } }), async (ctx) => {
    const actor = await admin(ctx);
    await run(actor, { type: 'ClearSearchEngine', data: { by: actor.id } });
    ctx.body = listing();
  });

  router.post('/admin/connections/search/test', contract({ access: 'admin', summary: 'Run one search query (format=json)', refusals: [404], responses: { 200: connectionTestResult } }), async (ctx) => {
    const actor = await admin(ctx);
    await live.refresh();
    const search = live.settings().search;
    if (!search) throw refuse('not_found', 'connections.not_set');
    const outcome = await probeSearch(search.url);
    await record(actor, 'search', outcome);
    ctx.body = probeAnswer(outcome);
  });

  router.put('/admin/connections/smtp', contract({ access: 'admin', summary: 'Set SMTP (a password in the URL is taken out and sealed)', body: smtpConnectionBody, responses: { 200: connectionsListing } }), async (ctx) => {
    const actor = await admin(ctx);
    const body = parseBody(ctx, smtpConnectionBody);
    // SMTP_URL's form (smtp://user:pass@host) is what operators paste: the password moves to its field.
    let url = body.url.trim();
    let password = body.password;
    try {
      const parsed = new URL(url);
      if (parsed.password !== '') {
        password ??= decodeURIComponent(parsed.password);
        parsed.password = '';
        url = parsed.toString();
      }
    } catch {
      // Not a URL: the decider refuses it with its code.
    }
    const encryptedPassword = sealedOrKeep(services, password);
    await run(actor, { type: 'SetSmtp', data: { url, from: body.from, ...(encryptedPassword !== undefined && { encryptedPassword }), by: actor.id } });
    ctx.body = listing();
  });

  router.delete('/admin/connections/smtp', contract({ access: 'admin', summary: 'Clear SMTP (mail goes to the outbox)', responses: { 200: connectionsListing } }), async (ctx) => {
    const actor = await admin(ctx);
    await run(actor, { type: 'ClearSmtp', data: { by: actor.id } });
    ctx.body = listing();
  });

  router.post('/admin/connections/smtp/test', contract({ access: 'admin', summary: 'Connect, EHLO and AUTH without sending', refusals: [404, 409], responses: { 200: connectionTestResult } }), async (ctx) => {
    const actor = await admin(ctx);
    await live.refresh();
    const smtp = live.settings().smtp;
    if (!smtp) throw refuse('not_found', 'connections.not_set');
    const outcome = await probeSmtp(smtp.url, openForTest(smtp.encryptedPassword));
    await record(actor, 'smtp', outcome);
    ctx.body = probeAnswer(outcome);
  });

  router.put('/admin/connections/speech', contract({ access: 'admin', summary: 'Set speech recognition (a key left out stays as it is)', body: speechConnectionBody, responses: { 200: connectionsListing } }), async (ctx) => {
    const actor = await admin(ctx);
    const body = parseBody(ctx, speechConnectionBody);
    const encryptedKey = sealedOrKeep(services, body.api_key);
    await run(actor, { type: 'SetSpeech', data: { baseUrl: body.base_url, model: body.model, ...(encryptedKey !== undefined && { encryptedKey }), by: actor.id } });
    ctx.body = listing();
  });

  router.delete('/admin/connections/speech', contract({ access: 'admin', summary: 'Clear speech recognition', responses: { 200: connectionsListing } }), async (ctx) => {
    const actor = await admin(ctx);
    await run(actor, { type: 'ClearSpeech', data: { by: actor.id } });
    ctx.body = listing();
  });

  router.post('/admin/connections/speech/test', contract({ access: 'admin', summary: 'List the speech server’s models', refusals: [404, 409], responses: { 200: connectionTestResult } }), async (ctx) => {
    const actor = await admin(ctx);
    await live.refresh();
    const speech = live.settings().speech;
    if (!speech) throw refuse('not_found', 'connections.not_set');
    const apiKey = openForTest(speech.encryptedKey);
    const outcome = await probeSpeech({ baseUrl: speech.baseUrl, model: speech.model, ...(apiKey && { apiKey }) });
    await record(actor, 'speech', outcome);
    ctx.body = probeAnswer(outcome);
  });

  return router;
}
