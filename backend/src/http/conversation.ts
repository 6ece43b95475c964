import Router from '@koa/router';
import { refineQuery } from '@scriptorium/domain/conversation/refine';
import { ownedChat } from './ownedChat.ts';
import { z } from 'zod';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { CHATS, type ChatDoc } from '@scriptorium/projections/chats';
import { MESSAGE_HEADS, type MessageDoc, type MessageHeadDoc } from '@scriptorium/projections/messages';
import { CANVAS, type CanvasDoc } from '@scriptorium/projections/canvas';
import { CANVAS_ID } from '@scriptorium/domain/protocol/research';
import type { ModelProvider } from '@scriptorium/infra/model/port';
import type { AgentName } from '@scriptorium/domain/conversation/conversation';
import { preferencesDecider, preferencesStream } from '@scriptorium/domain/preferences/preferences';
import type { ConversationService } from '@scriptorium/domain/conversation/service';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { httpError, invalidField } from './errors.ts';
import { parseBody, parseParams, parseQuery } from './validate.ts';
import { contract } from './contract.ts';
import { historyPageKey, pageRequest, readHistory, type PageRequest } from './history.ts';
import { HistoryPages } from './historyCache.ts';
import { acceptedEncoding, encodeJson, sendEncodedJson, type EncodedJson, type JsonEncoding } from './compression.ts';
import {
  availableModels,
  canvas,
  canvasEditBody,
  chatSendBody,
  clarificationAnswerBody,
  clientId,
  createSessionBody,
  dispatchBody,
  dispatched,
  editRequestBody,
  editRequested,
  feedbackOption,
  message,
  messagePosted,
  modelPreference,
  myChats,
  pendingQuestions,
  plan,
  planEditBody,
  planReview,
  planReviewBody,
  queryRefined,
  reportFeedbackSaved,
  researchBudget,
  researchFeedbackBody,
  researchPaused,
  researchResumed,
  researchStatus,
  searchStatusBody,
  session,
  sessionCreated,
  sessionHistory,
  sessionId,
  sessionNameBody,
  sessionTitleBody,
  setModeBody,
  type Canvas,
  type HistoryMessage,
  type MessagePosted,
  type Session,
  type SessionHistory,
  chatsMyQuery,
  historyPageQuery,
} from '@scriptorium/domain/protocol/http/conversation';

const sessionIdParam = z.object({ id: sessionId });
/** A session as the research endpoints describe it. */
export const sessionDto = (chat: ChatDoc): Session => ({
  session_id: chat._id,
  id: chat._id,
  name: chat.name,
  title: chat.title,
  prompt: chat.prompt,
  created_at: chat.created_at,
  updated_at: chat.updated_at,
  collaboration_mode: chat.collaboration_mode,
  search_enabled: chat.search_enabled,
  layout_preset: chat.layout_preset,
  status: chat.lifecycle,
  processing: chat.activity === 'processing',
  activity: chat.activity,
  message_count: chat.message_count,
});

export const messageDto = (doc: MessageDoc): HistoryMessage => ({
  message_id: doc._id,
  role: doc.role,
  agent: doc.agent,
  reply_to: doc.reply_to,
  status: doc.status,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
  contents: doc.contents,
});

/** The owner's history read, below `/backend`; `fastHistory.ts` answers its cached pages before koa's stack. */
export const SESSION_HISTORY_PATH = '/conversation/sessions/:id/messages';

/** A history read as far as the cache: who asks for which page, and the page if it is kept at the session's current version. */
export interface HistoryLookup {
  id: string;
  page: PageRequest | null;
  chat: ChatDoc;
  encoding: JsonEncoding;
  key: string;
  /** Null for a session whose messages have no head yet (read before heads existed): read, never kept. */
  version: string | null;
  cached: EncodedJson | undefined;
}

/**
 * The owner's history read in two steps, so that the koa route and the answer before koa's stack
 * (`fastHistory.ts`) run the same checks and share one cache of pages (`HistoryPages`).
 */
export class SessionHistories {
  private readonly pages = new HistoryPages();

  constructor(private readonly services: Services) {}

  /**
   * Validates the request, authenticates the caller and establishes that it owns the session (each
   * refusal thrown as the route answers it), then asks the cache. The owner is established before
   * the cache is asked: its entries say nothing of whose they are.
   */
  async lookup(ctx: Parameters<typeof requireUser>[1], params: unknown): Promise<HistoryLookup> {
    const { id } = parseParams(params, sessionIdParam);
    const page = pageRequest(parseQuery(ctx, historyPageQuery));
    const user = await requireUser(this.services, ctx);
    const chat = await ownedChat(this.services.readStore, user.id, id);
    // Read before the page, so a page stored under this version is never older than it.
    const head = await this.services.readStore.collection<MessageHeadDoc>(MESSAGE_HEADS).get(id);
    const version = head ? `${chat.last_position}:${head.last_position}` : null;
    const encoding = acceptedEncoding(ctx.get('accept-encoding'));
    const key = historyPageKey(id, page, encoding);
    return { id, page, chat, encoding, key, version, cached: version === null ? undefined : this.pages.get(key, version) };
  }

  /** The page `lookup` did not find kept: read, encoded, and kept under the version it was asked at. */
  async read({ id, page, chat, encoding, key, version }: HistoryLookup): Promise<EncodedJson> {
    const history = await readHistory(this.services.readStore, id, page);
    const position = Math.max(chat.last_position, ...history.messages.map((doc) => doc.last_position));
    const body: SessionHistory = { session_id: id, position, messages: history.messages.map(messageDto), ...(page && { earlier: history.earlier }) };
    const json = await encodeJson(JSON.stringify(body), encoding);
    if (version !== null) this.pages.set(key, version, json);
    return json;
  }
}

export function conversationRoutes(services: Services, conversations: ConversationService, model: ModelProvider, progress: ProjectionProgress, histories: SessionHistories): Router {
  const router = new Router();
  const chats = () => services.readStore.collection<ChatDoc>(CHATS);
  const actorOf = async (ctx: Parameters<typeof requireUser>[1], client?: string) => {
    const user = await requireUser(services, ctx);
    return { userId: user.id, ...(client !== undefined && { clientId: client }) };
  };
  const settled = async (position: number) => {
    if (position > 0) await progress.waitFor(position);
  };
  const current = async (actor: { userId: string }, id: string) => sessionDto(await ownedChat(services.readStore, actor.userId, id));
  type Ctx = Parameters<typeof requireUser>[1];
  /** Posts to a session the caller owns; the ids, once the history includes them. */
  const postMessage = async (ctx: Ctx, target: { session_id: string; client_id?: string | undefined }, text: string, agent?: AgentName): Promise<MessagePosted> => {
    const actor = await actorOf(ctx, target.client_id);
    await ownedChat(services.readStore, actor.userId, target.session_id);
    const posted = await conversations.post(actor, target.session_id, text, agent);
    await settled(posted.position);
    return { session_id: target.session_id, message_id: posted.messageId, reply_id: posted.replyId, agent: posted.agent };
  };
  /** Applies a change to a session the caller owns; the session as it now reads. */
  const changeSession = async (ctx: Ctx, id: string, change: (actor: { userId: string }) => Promise<{ position: number }>): Promise<Session> => {
    const actor = await actorOf(ctx);
    await ownedChat(services.readStore, actor.userId, id);
    await settled((await change(actor)).position);
    return current(actor, id);
  };
  /** Every route that answers with the session as it now reads. */
  const sessionReply = { 200: session };

  const sessionsBody = z.object({ client_id: clientId.optional() });
  const openSession = contract({ access: 'user', body: sessionsBody, responses: { 200: sessionCreated } });
  router.post('/conversation/sessions', openSession, async (ctx) => {
    const body = parseBody(ctx, sessionsBody);
    const actor = await actorOf(ctx, body.client_id);
    const { sessionId: id, position } = await conversations.create(actor);
    await settled(position);
    openSession.reply(ctx, 200, { session_id: id });
  });

  const createSession = contract({ access: 'user', body: createSessionBody, responses: sessionReply });
  router.post('/conversation/api/v2/research/create_session', createSession, async (ctx) => {
    const body = parseBody(ctx, createSessionBody);
    const actor = await actorOf(ctx, body.client_id);
    const { sessionId: id, position } = await conversations.create(actor, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.mode !== undefined && { collaborationMode: body.mode }),
      ...(body.search_enabled !== undefined && { searchEnabled: body.search_enabled }),
      ...(body.layout_preset !== undefined && { layoutPreset: body.layout_preset }),
    });
    await settled(position);
    createSession.reply(ctx, 200, await current(actor, id));
  });

  const startBody = z.object({ session_id: sessionId, message: message.optional(), query: message.optional(), client_id: clientId.optional() }).refine((body) => body.message ?? body.query, {
    message: 'conversation.message_empty',
    path: ['message'],
  });
  const start = contract({ access: 'user', body: startBody, responses: { 200: messagePosted }, refusals: [402, 404] });
  router.post(['/conversation/api/v2/research/start', '/conversation/research/start'], start, async (ctx) => {
    const body = parseBody(ctx, startBody);
    start.reply(ctx, 200, await postMessage(ctx, body, (body.message ?? body.query)!));
  });

  const chatSend = contract({ access: 'user', body: chatSendBody, responses: { 200: messagePosted }, refusals: [402, 404] });
  router.post('/conversation/api/v2/chat/send', chatSend, async (ctx) => {
    const body = parseBody(ctx, chatSendBody);
    chatSend.reply(ctx, 200, await postMessage(ctx, body, body.message));
  });

  const poeStartBody = z.object({ session_id: sessionId, text: message, client_id: clientId.optional() });
  const poeStart = contract({ access: 'user', body: poeStartBody, responses: { 200: messagePosted }, refusals: [402, 404] });
  router.post('/api/v2/chat/poe/start', poeStart, async (ctx) => {
    const body = parseBody(ctx, poeStartBody);
    poeStart.reply(ctx, 200, await postMessage(ctx, body, body.text, 'poe_llm'));
  });

  const updateStatusBody = z.object({ session_id: sessionId, status: z.enum(['active', 'archived'], { error: 'conversation.status_invalid' }) });
  /** One call to chat: continues the session named, or opens a general-chat one (mode 0) for a first message. */
  const chatBody = z.object({ message, session_id: sessionId.optional(), client_id: clientId.optional() });
  const conversationChat = contract({ access: 'user', body: chatBody, responses: { 200: messagePosted }, refusals: [402, 404] });
  router.post('/api/conversations/chat', conversationChat, async (ctx) => {
    const body = parseBody(ctx, chatBody);
    let id = body.session_id;
    if (id === undefined) {
      const actor = await actorOf(ctx, body.client_id);
      // Refused for budget before the session exists, so a refusal leaves no empty session behind.
      await services.budget.ensureAvailable(actor.userId);
      const created = await conversations.create(actor, { collaborationMode: 0 });
      await settled(created.position);
      id = created.sessionId;
    }
    conversationChat.reply(ctx, 200, await postMessage(ctx, { ...body, session_id: id }, body.message));
  });

  const updateStatus = contract({ access: 'user', body: updateStatusBody, responses: sessionReply, refusals: [404] });
  router.post('/conversation/api/v2/research/update_status', updateStatus, async (ctx) => {
    const body = parseBody(ctx, updateStatusBody);
    updateStatus.reply(ctx, 200, await changeSession(ctx, body.session_id, (actor) => conversations.setLifecycle(actor, body.session_id, body.status)));
  });

  const updateSearch = contract({ access: 'user', body: searchStatusBody, responses: sessionReply, refusals: [404] });
  router.post('/conversation/api/v2/research/update_search_status', updateSearch, async (ctx) => {
    const body = parseBody(ctx, searchStatusBody);
    updateSearch.reply(ctx, 200, await changeSession(ctx, body.session_id, (actor) => conversations.setSearch(actor, body.session_id, (body.search_enabled ?? body.enabled)!)));
  });

  const setMode = contract({ access: 'user', body: setModeBody, responses: sessionReply, refusals: [404] });
  router.post('/conversation/api/v2/research/set_mode', setMode, async (ctx) => {
    const body = parseBody(ctx, setModeBody);
    setMode.reply(ctx, 200, await changeSession(ctx, body.session_id, (actor) => conversations.setMode(actor, body.session_id, body.mode)));
  });

  const setTitle = contract({ access: 'user', params: sessionIdParam, body: sessionTitleBody, responses: sessionReply, refusals: [404] });
  router.put('/conversation/api/v2/sessions/:id/title', setTitle, async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const body = parseBody(ctx, sessionTitleBody);
    setTitle.reply(ctx, 200, await changeSession(ctx, id, (actor) => conversations.setTitle(actor, id, body.title)));
  });

  const rename = contract({ access: 'user', params: sessionIdParam, body: sessionNameBody, responses: sessionReply, refusals: [404] });
  router.put('/conversation/api/v2/sessions/:id/name', rename, async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const body = parseBody(ctx, sessionNameBody);
    rename.reply(ctx, 200, await changeSession(ctx, id, (actor) => conversations.rename(actor, id, body.name)));
  });

  const messages = contract({ access: 'user', params: sessionIdParam, query: historyPageQuery, responses: { 200: sessionHistory }, refusals: [404] });
  router.get(SESSION_HISTORY_PATH, messages, async (ctx) => {
    const asked = await histories.lookup(ctx, ctx.params);
    // Sent as encoded bytes, not through `messages.reply`: the body the cache keeps is typed in `read`.
    sendEncodedJson(ctx, asked.cached ?? (await histories.read(asked)));
  });

  const research = contract({ access: 'user', params: sessionIdParam, responses: sessionReply, refusals: [404] });
  router.get('/conversation/research/:id', research, async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const actor = await actorOf(ctx);
    research.reply(ctx, 200, await current(actor, id));
  });

  const status = contract({ access: 'user', params: sessionIdParam, responses: { 200: researchStatus }, refusals: [404] });
  router.get('/conversation/research/:id/status', status, async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const actor = await actorOf(ctx);
    const chat = await ownedChat(services.readStore, actor.userId, id);
    status.reply(ctx, 200, { session_id: id, status: chat.activity, processing: chat.activity === 'processing', active_reply: chat.active_reply });
  });

  const pause = contract({ access: 'user', params: sessionIdParam, responses: { 200: researchPaused }, refusals: [404] });
  router.post('/conversation/research/:id/pause', pause, async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const actor = await actorOf(ctx);
    await ownedChat(services.readStore, actor.userId, id);
    pause.reply(ctx, 200, { session_id: id, ...(await conversations.pause(actor, id)) });
  });

  const resume = contract({ access: 'user', params: sessionIdParam, responses: { 200: researchResumed }, refusals: [402, 404, 409] });
  router.post('/conversation/research/:id/resume', resume, async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const actor = await actorOf(ctx);
    await ownedChat(services.readStore, actor.userId, id);
    const resumed = await conversations.resume(actor, id);
    await settled(resumed.position);
    resume.reply(ctx, 200, { session_id: id, reply_id: resumed.replyId });
  });

  const dispatch = contract({ access: 'user', params: sessionIdParam, body: dispatchBody, responses: { 200: dispatched }, refusals: [402, 404] });
  router.post('/conversation/sessions/:id/dispatch', dispatch, async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const body = parseBody(ctx, dispatchBody);
    const actor = await actorOf(ctx, body.params.client_id);
    await ownedChat(services.readStore, actor.userId, id);
    switch (body.action) {
      case 'pause':
        dispatch.reply(ctx, 200, { session_id: id, action: 'pause', ...(await conversations.pause(actor, id)) });
        return;
      case 'resume': {
        const resumed = await conversations.resume(actor, id);
        dispatch.reply(ctx, 200, { session_id: id, action: 'resume', reply_id: resumed.replyId });
        return;
      }
      case 'send': {
        const text = message.safeParse(body.params.text);
        if (!text.success) throw invalidField(['params', 'text'], 'conversation.message_empty');
        const posted = await conversations.post(actor, id, text.data, body.agent as AgentName);
        dispatch.reply(ctx, 200, { session_id: id, action: 'send', message_id: posted.messageId, reply_id: posted.replyId });
        return;
      }
    }
  });

  const chatsMy = contract({ access: 'user', query: chatsMyQuery, responses: { 200: myChats } });
  router.get('/conversation/api/chats/my', chatsMy, async (ctx) => {
    const query = parseQuery(ctx, chatsMyQuery);
    const actor = await actorOf(ctx);
    const filter = { user_id: actor.userId };
    const [items, total] = await Promise.all([chats().find(filter, { sort: { created_at: -1 }, skip: query.skip, limit: query.limit }), chats().count(filter)]);
    chatsMy.reply(ctx, 200, {
      chats: items.map((chat) => ({ id: chat._id, prompt: chat.prompt, title: chat.title ?? chat.name, created_at: chat.created_at, message_count: chat.message_count })),
      total,
      skip: query.skip,
      limit: query.limit,
    });
  });

  const models = contract({ access: 'user', responses: { 200: availableModels } });
  router.get('/conversation/api/models/available', models, async (ctx) => {
    const actor = await actorOf(ctx);
    const { state } = await services.commands.load(preferencesDecider, preferencesStream(actor.userId));
    const preferred = state.model === model.name ? state.model : model.name;
    models.reply(ctx, 200, { models: [{ id: model.name, name: model.offline ? '离线引擎' : model.name, offline: model.offline, default: true }], current: preferred, offline: model.offline });
  });

  const modelsPreferencesBody = z.object({ model: z.string({ error: 'preferences.model_required' }).trim().min(1, 'preferences.model_required').max(200) });
  const setModel = contract({ access: 'user', body: modelsPreferencesBody, responses: { 200: modelPreference } });
  router.post('/conversation/api/models/preferences', setModel, async (ctx) => {
    const body = parseBody(ctx, modelsPreferencesBody);
    const actor = await actorOf(ctx);
    await services.commands.handle(preferencesDecider, preferencesStream(actor.userId), {
      type: 'SetModelPreference',
      data: { userId: actor.userId, model: body.model, available: [model.name] },
      metadata: { now: services.clock(), userId: actor.userId },
    });
    setModel.reply(ctx, 200, { model: body.model });
  });

  const budget = contract({ access: 'user', responses: { 200: researchBudget } });
  router.get('/conversation/api/v2/research/budget', budget, async (ctx) => {
    const actor = await actorOf(ctx);
    const remaining = Math.max(0, Math.floor(await services.budget.remainingTokens(actor.userId)));
    const estimate = services.config.RESEARCH_TOKENS_ESTIMATE;
    budget.reply(ctx, 200, { remaining_tokens: remaining, estimate_tokens: estimate, enough: remaining >= estimate });
  });

  const planReviewRead = contract({ access: 'user', responses: { 200: planReview } });
  router.get('/conversation/api/preferences/plan_review', planReviewRead, async (ctx) => {
    const actor = await actorOf(ctx);
    const { state } = await services.commands.load(preferencesDecider, preferencesStream(actor.userId));
    planReviewRead.reply(ctx, 200, { review_plans: state.reviewPlans });
  });
  const planReviewSet = contract({ access: 'user', body: planReviewBody, responses: { 200: planReview } });
  router.put('/conversation/api/preferences/plan_review', planReviewSet, async (ctx) => {
    const body = parseBody(ctx, planReviewBody);
    const actor = await actorOf(ctx);
    await services.commands.handle(preferencesDecider, preferencesStream(actor.userId), {
      type: 'SetPlanReviewPreference',
      data: { userId: actor.userId, reviewPlans: body.review_plans },
      metadata: { now: services.clock(), userId: actor.userId },
    });
    planReviewSet.reply(ctx, 200, { review_plans: body.review_plans });
  });

  const queryRefineBody = z.object({ query: message });
  const refine = contract({ access: 'user', body: queryRefineBody, responses: { 200: queryRefined }, refusals: [402] });
  router.post('/conversation/api/v2/query/refine', refine, async (ctx) => {
    const body = parseBody(ctx, queryRefineBody);
    const actor = await actorOf(ctx);
    refine.reply(ctx, 200, await refineQuery(services, model, actor.userId, body.query));
  });

  const answerClarification = contract({ access: 'user', params: sessionIdParam, body: clarificationAnswerBody, responses: sessionReply, refusals: [404] });
  router.post('/conversation/research/:id/clarification_answer', answerClarification, async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const body = parseBody(ctx, clarificationAnswerBody);
    answerClarification.reply(ctx, 200, await changeSession(ctx, id, (actor) => conversations.answerClarification(actor, id, body.answers)));
  });

  const editPlan = contract({ access: 'user', params: sessionIdParam, body: planEditBody, responses: { 200: plan }, refusals: [404, 409] });
  router.put('/conversation/research/:id/plan', editPlan, async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const body = parseBody(ctx, planEditBody);
    const actor = await actorOf(ctx);
    await ownedChat(services.readStore, actor.userId, id);
    const edited = await conversations.editPlan(actor, id, body.steps);
    await settled(edited.position);
    editPlan.reply(ctx, 200, { session_id: id, ...edited.plan });
  });

  const startPlan = contract({ access: 'user', params: sessionIdParam, responses: { 200: plan }, refusals: [402, 404, 409] });
  router.post('/conversation/research/:id/plan/start', startPlan, async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const actor = await actorOf(ctx);
    await ownedChat(services.readStore, actor.userId, id);
    const started = await conversations.startPlan(actor, id);
    await settled(started.position);
    startPlan.reply(ctx, 200, { session_id: id, ...started.plan });
  });

  const pending = contract({ access: 'user', params: sessionIdParam, responses: { 200: pendingQuestions }, refusals: [404] });
  router.get('/conversation/research/:id/pending_questions', pending, async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const actor = await actorOf(ctx);
    const chat = await ownedChat(services.readStore, actor.userId, id);
    pending.reply(ctx, 200, { session_id: id, questions: chat.pending_questions ?? [] });
  });

  const feedback = contract({ access: 'user', params: sessionIdParam, body: researchFeedbackBody, responses: sessionReply, refusals: [404] });
  router.post('/conversation/research/:id/feedback', feedback, async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const body = parseBody(ctx, researchFeedbackBody);
    const actor = await actorOf(ctx);
    await ownedChat(services.readStore, actor.userId, id);
    const { option, text } = normaliseFeedback(body);
    await settled((await conversations.giveFeedback(actor, id, option, text)).position);
    feedback.reply(ctx, 200, await current(actor, id));
  });

  const editRequest = contract({ access: 'user', params: sessionIdParam, body: editRequestBody, responses: { 200: editRequested }, refusals: [402, 404, 409] });
  router.post('/conversation/research/:id/edit_request', editRequest, async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const body = parseBody(ctx, editRequestBody);
    const actor = await actorOf(ctx);
    await ownedChat(services.readStore, actor.userId, id);
    const queued = await conversations.requestTargetedEdit(actor, id, { ...(body.request_id !== undefined && { requestId: body.request_id }), instruction: body.text, snippet: body.snippet, offset: body.offset, version: body.version });
    editRequest.reply(ctx, 200, { session_id: id, request_id: queued.requestId, from_version: queued.fromVersion, status: 'submitted' });
  });

  const readCanvas = contract({ access: 'user', params: sessionIdParam, responses: { 200: canvas }, refusals: [404] });
  router.get('/conversation/research/:id/canvas', readCanvas, async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const actor = await actorOf(ctx);
    await ownedChat(services.readStore, actor.userId, id);
    readCanvas.reply(ctx, 200, canvasDto(await services.readStore.collection<CanvasDoc>(CANVAS).get(id)));
  });

  const reportFeedbackBody = z.object({
    conversation_id: sessionId,
    version: z.number({ error: 'conversation.rating_version_required' }).int().min(1),
    rating: z.enum(['helpful', 'not_helpful'], { error: 'conversation.rating_invalid' }),
    comment: z.string().max(5000, 'conversation.rating_comment_too_long').optional(),
  });
  const reportFeedback = contract({ access: 'user', body: reportFeedbackBody, responses: { 200: reportFeedbackSaved }, refusals: [404] });
  router.post('/conversation/research/report_feedback', reportFeedback, async (ctx) => {
    const body = parseBody(ctx, reportFeedbackBody);
    const actor = await actorOf(ctx);
    await ownedChat(services.readStore, actor.userId, body.conversation_id);
    await conversations.rateReport(actor, body.conversation_id, { version: body.version, rating: body.rating, ...(body.comment !== undefined && { comment: body.comment }) });
    reportFeedback.reply(ctx, 200, { success: true });
  });

  const saveCanvas = contract({ access: 'user', params: sessionIdParam, body: canvasEditBody, responses: { 200: canvas }, refusals: [404] });
  router.put('/conversation/research/:id/canvas', saveCanvas, async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const body = parseBody(ctx, canvasEditBody);
    const actor = await actorOf(ctx);
    await ownedChat(services.readStore, actor.userId, id);
    const result = await conversations.editCanvas(actor, id, { content: body.content, ...(body.title !== undefined && { title: body.title }), fromVersion: body.from_version });
    await settled(result.position);
    saveCanvas.reply(ctx, 200, canvasDto(await services.readStore.collection<CanvasDoc>(CANVAS).get(id)));
  });

  const canvasMarkdownParams = sessionIdParam.extend({ version: z.coerce.number().int().min(1) });
  router.get('/conversation/research/:id/canvas/:version/markdown', contract({ access: 'user', params: canvasMarkdownParams, responses: { 200: { type: 'text/markdown' } }, refusals: [404] }), async (ctx) => {
    const { id, version } = parseParams(ctx.params, canvasMarkdownParams);
    const actor = await actorOf(ctx);
    await ownedChat(services.readStore, actor.userId, id);
    const canvas = await services.readStore.collection<CanvasDoc>(CANVAS).get(id);
    const found = canvas?.versions.find((candidate) => candidate.version === version);
    if (!found) throw httpError(404, 'conversation.version_not_found');
    ctx.set('Content-Disposition', contentDisposition(`${found.title || 'report'}-v${found.version}.md`));
    ctx.type = 'text/markdown; charset=utf-8';
    ctx.body = found.content;
  });

  return router;
}



/** `{feedback}` (the spec's payload) is an option name or, failing that, the user's own words. */
function normaliseFeedback(body: z.infer<typeof researchFeedbackBody>): { option: z.infer<typeof feedbackOption>; text?: string } {
  if ('option' in body) return { option: body.option, ...(body.text !== undefined && { text: body.text }) };
  const parsed = feedbackOption.safeParse(body.feedback);
  return parsed.success ? { option: parsed.data } : { option: 'manual_feedback', text: body.feedback };
}

export const canvasDto = (canvas: CanvasDoc | null): Canvas => ({
  artifact_id: CANVAS_ID,
  versions: (canvas?.versions ?? []).map(({ version, title, content, timestamp, interrupted, source, citations }) => ({ version, title, content, timestamp, interrupted, source, ...(citations && { citations }) })),
  currentVersion: canvas?.currentVersion ?? null,
});

/** RFC 6266 with a UTF-8 name, so Chinese titles survive the download (a lone surrogate, which `encodeURIComponent` refuses, as U+FFFD). */
export const contentDisposition = (filename: string) => {
  const safe = filename.toWellFormed().replace(/[\r\n"\\/]/g, '_');
  return `attachment; filename="${safe.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(safe)}`;
};

