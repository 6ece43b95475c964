import Router from '@koa/router';
import { z } from 'zod';
import type { ProjectionProgress } from '@scriptorium/projections/runner';
import { CHATS, type ChatDoc } from '@scriptorium/projections/chats';
import { MESSAGES, type MessageDoc } from '@scriptorium/projections/messages';
import { CANVAS, type CanvasDoc } from '@scriptorium/projections/canvas';
import { CANVAS_ID } from '../protocol/research.ts';
import type { ModelProvider } from '@scriptorium/workers/model/port';
import { AGENTS, type AgentName } from '../domain/conversation/conversation.ts';
import { preferencesDecider, preferencesStream } from '../domain/preferences/preferences.ts';
import type { ConversationService } from '../domain/conversation/service.ts';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { HttpError } from './errors.ts';
import { parseBody, parseParams, parseQuery } from './validate.ts';

const sessionIdParam = z.object({ id: z.uuid('会话 ID 格式不正确') });
const sessionId = z.uuid('会话 ID 格式不正确');
const clientId = z.string().trim().regex(/^[A-Za-z0-9_-]{1,100}$/, 'client_id 格式不正确');
const mode = z.union([z.literal(0), z.literal(1)], { error: 'mode 只能是 0 或 1' });
const message = z.string({ error: '请输入消息' }).trim().min(1, '消息不能为空').max(20_000, '消息最长 20000 个字符');
const page = (defaultLimit: number, maxLimit: number) =>
  z.object({
    skip: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit),
  });

/** A session as the research endpoints describe it. */
export const sessionDto = (chat: ChatDoc) => ({
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

export const messageDto = (doc: MessageDoc) => ({
  message_id: doc._id,
  role: doc.role,
  agent: doc.agent,
  reply_to: doc.reply_to,
  status: doc.status,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
  contents: doc.contents,
});

export function conversationRoutes(services: Services, conversations: ConversationService, model: ModelProvider, progress: ProjectionProgress): Router {
  const router = new Router();
  const chats = () => services.readStore.collection<ChatDoc>(CHATS);
  const actorOf = async (ctx: Parameters<typeof requireUser>[1], client?: string) => {
    const user = await requireUser(services, ctx);
    return { userId: user.id, ...(client !== undefined && { clientId: client }) };
  };
  const settled = async (position: number) => {
    if (position > 0) await progress.waitFor(position);
  };
  const current = async (actor: { userId: string }, id: string) => sessionDto(await conversations.owned(actor, id));
  type Ctx = Parameters<typeof requireUser>[1];
  /** Posts to a session the caller owns and answers with the ids once the history includes them. */
  const postMessage = async (ctx: Ctx, target: { session_id: string; client_id?: string | undefined }, text: string, agent?: AgentName) => {
    const actor = await actorOf(ctx, target.client_id);
    await conversations.owned(actor, target.session_id);
    const posted = await conversations.post(actor, target.session_id, text, agent);
    await settled(posted.position);
    ctx.body = { session_id: target.session_id, message_id: posted.messageId, reply_id: posted.replyId, agent: posted.agent };
  };
  /** Applies a change to a session the caller owns and answers with the session as it now reads. */
  const changeSession = async (ctx: Ctx, id: string, change: (actor: { userId: string }) => Promise<{ position: number }>) => {
    const actor = await actorOf(ctx);
    await conversations.owned(actor, id);
    await settled((await change(actor)).position);
    ctx.body = await current(actor, id);
  };

  router.post('/conversation/sessions', async (ctx) => {
    const body = parseBody(ctx, z.object({ client_id: clientId.optional() }));
    const actor = await actorOf(ctx, body.client_id);
    const { sessionId: id, position } = await conversations.create(actor);
    await settled(position);
    ctx.body = { session_id: id };
  });

  router.post('/conversation/api/v2/research/create_session', async (ctx) => {
    const body = parseBody(
      ctx,
      z.object({
        client_id: clientId.optional(),
        name: z.string().trim().max(100).optional(),
        mode: mode.optional(),
        search_enabled: z.boolean().optional(),
        layout_preset: z.enum(['home-welcome', 'chat-interface-only']).optional(),
      }),
    );
    const actor = await actorOf(ctx, body.client_id);
    const { sessionId: id, position } = await conversations.create(actor, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.mode !== undefined && { collaborationMode: body.mode }),
      ...(body.search_enabled !== undefined && { searchEnabled: body.search_enabled }),
      ...(body.layout_preset !== undefined && { layoutPreset: body.layout_preset }),
    });
    await settled(position);
    ctx.body = await current(actor, id);
  });

  const startBody = z.object({ session_id: sessionId, message: message.optional(), query: message.optional(), client_id: clientId.optional() }).refine((body) => body.message ?? body.query, {
    message: '消息不能为空',
    path: ['message'],
  });
  router.post(['/conversation/api/v2/research/start', '/conversation/research/start'], async (ctx) => {
    const body = parseBody(ctx, startBody);
    await postMessage(ctx, body, (body.message ?? body.query)!);
  });

  router.post('/conversation/api/v2/chat/send', async (ctx) => {
    const body = parseBody(ctx, z.object({ session_id: sessionId, message, client_id: clientId.optional() }));
    await postMessage(ctx, body, body.message);
  });

  router.post('/api/v2/chat/poe/start', async (ctx) => {
    const body = parseBody(ctx, z.object({ session_id: sessionId, text: message, client_id: clientId.optional() }));
    await postMessage(ctx, body, body.text, 'poe_llm');
  });

  router.post('/conversation/api/v2/research/update_status', async (ctx) => {
    const body = parseBody(ctx, z.object({ session_id: sessionId, status: z.enum(['active', 'archived'], { error: 'status 只能是 active 或 archived' }) }));
    await changeSession(ctx, body.session_id, (actor) => conversations.setLifecycle(actor, body.session_id, body.status));
  });

  router.post('/conversation/api/v2/research/update_search_status', async (ctx) => {
    const body = parseBody(
      ctx,
      z.object({ session_id: sessionId, search_enabled: z.boolean().optional(), enabled: z.boolean().optional() }).refine((value) => (value.search_enabled ?? value.enabled) !== undefined, {
        message: '请提供 search_enabled',
        path: ['search_enabled'],
      }),
    );
    await changeSession(ctx, body.session_id, (actor) => conversations.setSearch(actor, body.session_id, (body.search_enabled ?? body.enabled)!));
  });

  router.post('/conversation/api/v2/research/set_mode', async (ctx) => {
    const body = parseBody(ctx, z.object({ session_id: sessionId, mode }));
    await changeSession(ctx, body.session_id, (actor) => conversations.setMode(actor, body.session_id, body.mode));
  });

  router.put('/conversation/api/v2/sessions/:id/title', async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const body = parseBody(ctx, z.object({ title: z.string({ error: '请输入标题' }).trim().min(1, '标题不能为空').max(200, '标题最多 200 个字符') }));
    await changeSession(ctx, id, (actor) => conversations.setTitle(actor, id, body.title));
  });

  router.put('/conversation/api/v2/sessions/:id/name', async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const body = parseBody(ctx, z.object({ name: z.string({ error: '请输入名称' }).trim().min(1, '会话名称不能为空').max(100, '名称最多 100 个字符') }));
    await changeSession(ctx, id, (actor) => conversations.rename(actor, id, body.name));
  });

  router.get('/conversation/sessions/:id/messages', async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const actor = await actorOf(ctx);
    const chat = await conversations.owned(actor, id);
    const messages = await services.readStore.collection<MessageDoc>(MESSAGES).find({ session_id: id }, { sort: { order: 1 } });
    const position = Math.max(chat.last_position, ...messages.map((doc) => doc.last_position));
    ctx.body = { session_id: id, position, messages: messages.map(messageDto) };
  });

  router.get('/conversation/research/:id', async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const actor = await actorOf(ctx);
    ctx.body = await current(actor, id);
  });

  router.get('/conversation/research/:id/status', async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const actor = await actorOf(ctx);
    const chat = await conversations.owned(actor, id);
    ctx.body = { session_id: id, status: chat.activity, processing: chat.activity === 'processing', active_reply: chat.active_reply };
  });

  router.post('/conversation/research/:id/pause', async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const actor = await actorOf(ctx);
    await conversations.owned(actor, id);
    ctx.body = { session_id: id, ...(await conversations.pause(actor, id)) };
  });

  router.post('/conversation/research/:id/resume', async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const actor = await actorOf(ctx);
    await conversations.owned(actor, id);
    const resumed = await conversations.resume(actor, id);
    await settled(resumed.position);
    ctx.body = { session_id: id, reply_id: resumed.replyId };
  });

  const dispatchBody = z.object({
    agent: z.enum(AGENTS, { error: `agent 只能是 ${AGENTS.join('、')}` }),
    action: z.enum(['pause', 'resume', 'send'], { error: 'action 只能是 pause、resume 或 send' }),
    params: z.object({ client_id: clientId.optional(), text: z.string().optional() }).passthrough().default({}),
    run_async: z.boolean().default(true),
  });
  router.post('/conversation/sessions/:id/dispatch', async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const body = parseBody(ctx, dispatchBody);
    const actor = await actorOf(ctx, body.params.client_id);
    await conversations.owned(actor, id);
    switch (body.action) {
      case 'pause':
        ctx.body = { session_id: id, action: 'pause', ...(await conversations.pause(actor, id)) };
        return;
      case 'resume': {
        const resumed = await conversations.resume(actor, id);
        ctx.body = { session_id: id, action: 'resume', reply_id: resumed.replyId };
        return;
      }
      case 'send': {
        const text = message.safeParse(body.params.text);
        if (!text.success) throw new HttpError(422, [{ loc: ['body', 'params', 'text'], msg: '消息不能为空', type: 'value_error' }]);
        const posted = await conversations.post(actor, id, text.data, body.agent as AgentName);
        ctx.body = { session_id: id, action: 'send', message_id: posted.messageId, reply_id: posted.replyId };
        return;
      }
    }
  });

  router.get('/conversation/api/chats/my', async (ctx) => {
    const query = parseQuery(ctx, page(20, 100));
    const actor = await actorOf(ctx);
    const filter = { user_id: actor.userId };
    const [items, total] = await Promise.all([chats().find(filter, { sort: { created_at: -1 }, skip: query.skip, limit: query.limit }), chats().count(filter)]);
    ctx.body = {
      chats: items.map((chat) => ({ id: chat._id, prompt: chat.prompt, title: chat.title ?? chat.name, created_at: chat.created_at, message_count: chat.message_count })),
      total,
      skip: query.skip,
      limit: query.limit,
    };
  });

  router.get('/conversation/api/models/available', async (ctx) => {
    const actor = await actorOf(ctx);
    const { state } = await services.commands.load(preferencesDecider, preferencesStream(actor.userId));
    const preferred = state.status === 'chosen' && state.model === model.name ? state.model : model.name;
    ctx.body = { models: [{ id: model.name, name: model.offline ? '离线引擎' : model.name, offline: model.offline, default: true }], current: preferred, offline: model.offline };
  });

  router.post('/conversation/api/models/preferences', async (ctx) => {
    const body = parseBody(ctx, z.object({ model: z.string({ error: '请选择模型' }).trim().min(1, '请选择模型').max(200) }));
    const actor = await actorOf(ctx);
    await services.commands.handle(preferencesDecider, preferencesStream(actor.userId), {
      type: 'SetModelPreference',
      data: { userId: actor.userId, model: body.model, available: [model.name] },
      metadata: { now: services.clock(), userId: actor.userId },
    });
    ctx.body = { model: body.model };
  });

  router.post('/conversation/api/v2/query/refine', async (ctx) => {
    const body = parseBody(ctx, z.object({ query: message }));
    const actor = await actorOf(ctx);
    await services.budget.ensureAvailable(actor.userId);
    ctx.body = await refineQuery(model, body.query);
  });

  router.post('/conversation/research/:id/clarification_answer', async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const body = parseBody(ctx, z.object({ answers: z.array(clarificationAnswer).min(1, '请至少回答一个问题').max(50) }));
    await changeSession(ctx, id, (actor) => conversations.answerClarification(actor, id, body.answers));
  });

  router.get('/conversation/research/:id/pending_questions', async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const actor = await actorOf(ctx);
    const chat = await conversations.owned(actor, id);
    ctx.body = { session_id: id, questions: chat.pending_questions ?? [] };
  });

  router.post('/conversation/research/:id/feedback', async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const body = parseBody(ctx, feedbackBody);
    const actor = await actorOf(ctx);
    await conversations.owned(actor, id);
    const { option, text } = normaliseFeedback(body);
    await settled((await conversations.giveFeedback(actor, id, option, text)).position);
    ctx.body = await current(actor, id);
  });

  router.post('/conversation/research/:id/edit_request', async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const body = parseBody(
      ctx,
      z.object({
        request_id: z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, 'request_id 格式不正确').optional(),
        text: z.string({ error: '请输入修改指令' }).trim().min(1, '修改指令不能为空').max(2000),
        snippet: z.string({ error: '请选择要修改的文本' }).min(1, '选中的文本不能为空').max(20_000).refine((value) => value.trim().length > 0, '选中的文本不能为空'),
      }),
    );
    const actor = await actorOf(ctx);
    await conversations.owned(actor, id);
    const queued = await conversations.requestTargetedEdit(actor, id, { ...(body.request_id !== undefined && { requestId: body.request_id }), instruction: body.text, snippet: body.snippet });
    ctx.body = { session_id: id, request_id: queued.requestId, from_version: queued.fromVersion, status: 'submitted' };
  });

  router.get('/conversation/research/:id/canvas', async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const actor = await actorOf(ctx);
    await conversations.owned(actor, id);
    ctx.body = canvasDto(await services.readStore.collection<CanvasDoc>(CANVAS).get(id));
  });

  router.post('/conversation/research/report_feedback', async (ctx) => {
    const body = parseBody(
      ctx,
      z.object({
        conversation_id: sessionId,
        version: z.number({ error: '请提供报告版本' }).int().min(1),
        rating: z.enum(['helpful', 'not_helpful'], { error: 'rating 只能是 helpful 或 not_helpful' }),
        comment: z.string().max(5000, '意见最长 5000 个字符').optional(),
      }),
    );
    const actor = await actorOf(ctx);
    await conversations.owned(actor, body.conversation_id);
    await conversations.rateReport(actor, body.conversation_id, { version: body.version, rating: body.rating, ...(body.comment !== undefined && { comment: body.comment }) });
    ctx.body = { success: true };
  });

  router.put('/conversation/research/:id/canvas', async (ctx) => {
    const { id } = parseParams(ctx.params, sessionIdParam);
    const body = parseBody(
      ctx,
      z.object({
        content: z.string({ error: '请提供报告内容' }).max(500_000, '报告过长'),
        title: z.string().trim().max(200).optional(),
        from_version: z.number({ error: '请提供 from_version' }).int().min(1),
      }),
    );
    const actor = await actorOf(ctx);
    await conversations.owned(actor, id);
    const result = await conversations.editCanvas(actor, id, { content: body.content, ...(body.title !== undefined && { title: body.title }), fromVersion: body.from_version });
    await settled(result.position);
    ctx.body = canvasDto(await services.readStore.collection<CanvasDoc>(CANVAS).get(id));
  });

  router.get('/conversation/research/:id/canvas/:version/markdown', async (ctx) => {
    const { id, version } = parseParams(ctx.params, sessionIdParam.extend({ version: z.coerce.number().int().min(1) }));
    const actor = await actorOf(ctx);
    await conversations.owned(actor, id);
    const canvas = await services.readStore.collection<CanvasDoc>(CANVAS).get(id);
    const found = canvas?.versions.find((candidate) => candidate.version === version);
    if (!found) throw new HttpError(404, '该版本不存在');
    ctx.set('Content-Disposition', contentDisposition(`${found.title || 'report'}-v${found.version}.md`));
    ctx.type = 'text/markdown; charset=utf-8';
    ctx.body = found.content;
  });

  return router;
}

const clarificationAnswer = z.object({
  id: z.string().min(1).max(100),
  question: z.string().max(2000).default(''),
  selectedOptions: z.array(z.string().max(500)).max(50).default([]),
  textInput: z.string().max(5000).default(''),
  question_type: z.enum(['single', 'multiple', 'text']).default('text'),
});

const feedbackOption = z.enum(['continue', 'satisfied', 'manual_feedback'], { error: 'option 只能是 continue、satisfied 或 manual_feedback' });
const feedbackBody = z.union([
  z.object({ option: feedbackOption, text: z.string().max(5000).optional() }),
  z.object({ feedback: z.union([feedbackOption, z.string().trim().min(1, '反馈不能为空').max(5000)]) }),
]);

/** `{feedback}` (the spec's payload) is an option name or, failing that, the user's own words. */
function normaliseFeedback(body: z.infer<typeof feedbackBody>): { option: z.infer<typeof feedbackOption>; text?: string } {
  if ('option' in body) return { option: body.option, ...(body.text !== undefined && { text: body.text }) };
  const parsed = feedbackOption.safeParse(body.feedback);
  return parsed.success ? { option: parsed.data } : { option: 'manual_feedback', text: body.feedback };
}

export const canvasDto = (canvas: CanvasDoc | null) => ({
  artifact_id: CANVAS_ID,
  versions: (canvas?.versions ?? []).map(({ version, title, content, timestamp, interrupted, source }) => ({ version, title, content, timestamp, interrupted, source })),
  currentVersion: canvas?.currentVersion ?? null,
});

/** RFC 6266 with a UTF-8 name, so Chinese titles survive the download. */
export const contentDisposition = (filename: string) => {
  const safe = filename.replace(/[\r\n"\\/]/g, '_');
  return `attachment; filename="${safe.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(safe)}`;
};

/** Rewrites a research question to be specific; the offline engine can only tidy it. */
async function refineQuery(model: ModelProvider, query: string): Promise<{ query: string; refined_query: string; offline: boolean }> {
  const tidy = query.replace(/\s+/g, ' ').trim();
  if (model.offline) return { query, refined_query: tidy, offline: true };
  const completion = await model.complete({
    messages: [
      { role: 'system', content: '你是研究助理。把用户的问题改写成一个更清晰、具体、可检索的研究问题。只输出改写后的问题，不要解释。使用与用户相同的语言。' },
      { role: 'user', content: tidy },
    ],
    temperature: 0.2,
    maxTokens: 200,
  });
  return { query, refined_query: completion.text.trim() || tidy, offline: false };
}
