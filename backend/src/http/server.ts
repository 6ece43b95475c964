import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import type Koa from 'koa';
import websockify from 'koa-websocket';
import type { ProjectionProgress, ProjectionRunner } from '@scriptorium/projections/runner';
import { CLOSE_ACCOUNT_INACTIVE, CLOSE_FORBIDDEN, CLOSE_NOT_FOUND, CLOSE_UNAUTHORIZED } from '@scriptorium/domain/protocol/ws';
import type { Services } from '../services.ts';
import { ConversationService } from '@scriptorium/domain/conversation/service';
import { ConversationGateway } from '../ws/conversations.ts';
import { SocketHub } from '../ws/hub.ts';
import { EngineerGateway } from '../ws/engineer.ts';
import { CollabGateway } from '../ws/collab.ts';
import { CollabService } from '@scriptorium/domain/collabdoc/service';
import { collabRoutes } from './collab.ts';
import { conversationRoutes, SessionHistories } from './conversation.ts';
import { shareRoutes } from './share.ts';
import { contextFiles, fileRoutes } from './files.ts';
import { exportRoutes } from './exports.ts';
import { deckReviewRoutes } from './deckReviews.ts';
import { agentRoutes } from './agents.ts';
import { cognitionRoutes } from './cognition.ts';
import { dashboardRoutes } from './dashboard.ts';
import { engineerRoutes } from './engineer.ts';
import { OPENAI_PREFIX, openAiRefusal } from './openai.ts';
import { trajectoryRoutes } from './trajectories.ts';
import { aiEngineerRoutes } from './aiEngineer.ts';
import { EngineerService } from '@scriptorium/domain/engineer/service';
import { noteRoutes } from './notes.ts';
import { openApiRoutes } from './openapi.ts';
import { speechRoutes } from './speech.ts';
import { adminRoutes } from './admin.ts';
import { connectionRoutes } from './connections.ts';
import { auditRoutes } from './audit.ts';
import { projectionRoutes } from './projections.ts';
import { authRoutes } from './auth.ts';
import { oauthMetadataRoutes, oauthRoutes } from './oauth.ts';
import { resolveToken, signInStatus, type SignIn } from './authenticate.ts';
import { scopesAllow } from './scopes.ts';
import { errorMiddleware } from './errors.ts';
import { securityHeaders } from './security.ts';
import { feedbackRoutes } from './feedback.ts';
import { healthRoutes } from './health.ts';
import { beginRequest, endRequest, setApiCaching } from './requestLog.ts';
import { API_PREFIX, cachedHistoryFirst, FrontedKoa } from './fastHistory.ts';
import { staticFrontend } from './static.ts';
import { compressJson } from './compression.ts';
import { taskRoutes } from './tasks.ts';
import { usageRoutes } from './usage.ts';

const DIST = fileURLToPath(new URL('../../../frontend/dist', import.meta.url));
const SOCKET_PATH = /^\/backend\/conversation\/ws\/([A-Za-z0-9_-]{1,100})$/;
const ENGINEER_SOCKET_PATH = /^\/backend\/api\/ai-engineer\/ws\/sessions\/([A-Za-z0-9_-]{1,100})$/;
const COLLAB_SOCKET_PATH = /^\/backend\/api\/collab\/ws\/([a-f0-9]{32})$/;

export interface Api {
  app: websockify.App;
  /** The same app, as the server's first stop: its `front` answers cached history reads before koa's middleware. */
  koa: FrontedKoa;
  hub: SocketHub;
  gateway: ConversationGateway;
  conversations: ConversationService;
  /** The `/backend` routes, which the OpenAPI document describes. */
  router: Router;
  /** Closes sockets and the fan-out; the caller closes the HTTP server. */
  close(): Promise<void>;
}

/** `runner`: the projector of this process, when it runs one (the admin console rebuilds through it). */
export async function createApi(services: Services, progress: ProjectionProgress, options: { distDir?: string; runner?: ProjectionRunner } = {}): Promise<Api> {
  // Only the entry the proxy itself appended is believed: anything left of it is the client's to forge.
  const koa = new FrontedKoa({ proxy: services.config.TRUST_PROXY, maxIpsCount: 1 });
  const app = websockify(koa, { maxPayload: 1024 * 1024 });
  const checkSignIn = (signIn: SignIn) => signInStatus(services, signIn);
  const hub = new SocketHub(services.log, checkSignIn);
  const conversations = new ConversationService(services);
  const engineer = new EngineerService(services);
  const fileOptions = { blobs: services.blobs, progress };
  const contexts = contextFiles(services, fileOptions);
  const gateway = new ConversationGateway(services.events, services.commands, conversations, services.readStore, hub, contexts, services.log);
  await gateway.start();
  const engineerGateway = new EngineerGateway(services.events, services.commands, engineer, services.log, checkSignIn);
  await engineerGateway.start();
  const collab = new CollabService(services);
  const collabGateway = new CollabGateway(services.events, services.readStore, collab, services.presence, services.log, checkSignIn);
  await collabGateway.start();

  // Koa reports what fails after the response began (mostly a client that went away mid-stream)
  // here; without a listener it prints to stderr outside the structured log.
  app.on('error', (error: NodeJS.ErrnoException, ctx?: Koa.Context) => {
    const gone = error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.code === 'ECONNRESET' || error.code === 'EPIPE';
    const log = (ctx?.state.log as typeof services.log | undefined) ?? services.log;
    if (gone) log.debug({ code: error.code, path: ctx?.path }, 'the client went away before the response ended');
    else log.error({ err: error, path: ctx?.path }, 'response failed after it began');
  });

  app.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    beginRequest(ctx, services.log);
    try {
      await next();
    } finally {
      endRequest(ctx, started);
    }
  });
  app.use(securityHeaders());
  app.use(compressJson());
  app.use(errorMiddleware({ [OPENAI_PREFIX]: openAiRefusal }));
  app.use(async (ctx, next) => {
    setApiCaching(ctx);
    await next();
  });
  app.use(bodyParser({ enableTypes: ['json', 'form'], jsonLimit: '1mb', formLimit: '256kb', jsonStrict: true }));

  const histories = new SessionHistories(services);
  koa.front = cachedHistoryFirst(koa, services, histories);
  const api = new Router({ prefix: API_PREFIX });
  api.use(authRoutes(services, progress).routes());
  api.use(oauthRoutes(services, progress).routes());
  api.use(adminRoutes(services, progress).routes());
  api.use(connectionRoutes(services).routes());
  api.use(projectionRoutes(services, options.runner).routes());
  api.use(auditRoutes(services).routes());
  api.use(dashboardRoutes(services).routes());
  api.use(usageRoutes(services).routes());
  api.use(taskRoutes(services, progress).routes());
  api.use(feedbackRoutes(services, progress).routes());
  api.use(conversationRoutes(services, conversations, services.model, progress, histories).routes());
  api.use(shareRoutes(services, conversations, progress).routes());
  api.use(fileRoutes(services, conversations, fileOptions, contexts).routes());
  api.use(exportRoutes(services).routes());
  api.use(deckReviewRoutes(services, progress).routes());
  api.use(speechRoutes(services, conversations, progress).routes());
  api.use(noteRoutes(services, progress).routes());
  api.use(cognitionRoutes(services, progress).routes());
  api.use(engineerRoutes(services).routes());
  api.use(agentRoutes(services, progress).routes());
  api.use(trajectoryRoutes(services, progress).routes());
  api.use(aiEngineerRoutes(services, engineer, progress).routes());
  api.use(collabRoutes(services, collab, progress).routes());
  const oauthMetadata = oauthMetadataRoutes(services);
  api.use(openApiRoutes(api, [oauthMetadata]).routes());
  app.use(api.routes()).use(api.allowedMethods());
  app.use(healthRoutes(services).routes());
  app.use(oauthMetadata.routes());
  app.use(staticFrontend(options.distDir ?? DIST));

  app.ws.use(async (ctx) => {
    const socket = ctx.websocket;
    const match = SOCKET_PATH.exec(ctx.path);
    const engineerMatch = ENGINEER_SOCKET_PATH.exec(ctx.path);
    const collabMatch = COLLAB_SOCKET_PATH.exec(ctx.path);
    if (!match && !engineerMatch && !collabMatch) {
      socket.close(CLOSE_NOT_FOUND, 'unknown socket path');
      return;
    }
    // A client may send as soon as the socket opens, while the token is still being checked (a read
    // model lookup, slower on a server database): those messages are held, then handled in order.
    const early: [Buffer, boolean][] = [];
    const hold = (raw: Buffer, isBinary: boolean) => early.push([raw, isBinary]);
    socket.on('message', hold);
    const token = new URLSearchParams(ctx.querystring).get('token') ?? undefined;
    const user = await resolveToken(services, token).catch(() => null);
    socket.off('message', hold);
    if (!user) {
      socket.close(CLOSE_UNAUTHORIZED, 'user not authenticated, cannot establish the realtime connection');
      return;
    }
    if (!user.doc.is_active) {
      socket.close(CLOSE_ACCOUNT_INACTIVE, 'account deactivated');
      return;
    }
    if (!scopesAllow(user.signIn.scopes, 'GET', ctx.path)) {
      socket.close(CLOSE_FORBIDDEN, 'outside the token scope');
      return;
    }
    const identity = user.signIn;
    if (collabMatch) {
      const version = Number.parseInt(new URLSearchParams(ctx.querystring).get('version') ?? '', 10);
      await collabGateway.accept(socket, { ...identity, clientId: `collab-${randomUUID()}` }, collabMatch[1]!, Number.isSafeInteger(version) && version >= 0 ? version : 0);
    } else if (engineerMatch) {
      const lastPosition = Number.parseInt(new URLSearchParams(ctx.querystring).get('last_position') ?? '', 10);
      await engineerGateway.accept(socket, { ...identity, clientId: `engineer-${randomUUID()}` }, engineerMatch[1]!, Number.isSafeInteger(lastPosition) && lastPosition >= 0 ? lastPosition : undefined);
    } else hub.accept(socket, ctx.req, { ...identity, clientId: match![1]! });
    for (const [raw, isBinary] of early) socket.emit('message', raw, isBinary);
  });

  return {
    app,
    koa,
    hub,
    gateway,
    conversations,
    router: api,
    async close() {
      hub.closeAll();
      await gateway.stop();
      await engineerGateway.stop();
      await collabGateway.stop();
    },
  };
}
