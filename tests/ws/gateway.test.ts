/**
 * The model gateway seen by a user: a reasoning model's thoughts never reach the chat, its history
 * or the session's title, and a request the provider refuses ends the reply saying so, coded.
 * The model server here speaks OpenAI's streaming protocol as Qwen3 on vLLM without a reasoning
 * parser does: the opening `<think>` swallowed by the chat template, `</think>` in the content.
 */
import test from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';
import { openSocket, streamedText } from '../support/socket.ts';
import { estimateTokens } from '@scriptorium/infra/model/tokens';

const ANSWER = '事件溯源把每一次变化记录为事件。Event sourcing records every change.';
const THOUGHT = '用户问的是事件溯源 {"plan": "先定义"}，我先想一想怎么回答。';
const TITLE = '事件溯源简介';
const REFUSAL = 'Invalid max_tokens value, the valid range of max_tokens is [1, 8192]';
const CUT_TEXT = '回答写到一半';

let model: Server;
let app: TestApp;
const asked: Array<{ max_tokens?: number; messages: Array<{ content: string }> }> = [];

test.before(async () => {
  model = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof asked)[number];
      asked.push(body);
      const last = body.messages.at(-1)!.content;
      if (last.includes('请拒绝')) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: REFUSAL, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } }));
        return;
      }
      if (last.includes('请中断')) {
        // The connection drops mid-answer: no finish_reason, no usage.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'qwen3:8b', choices: [{ index: 0, delta: { content: `</think>${CUT_TEXT}` }, finish_reason: null }] })}\n\n`, () => res.socket?.destroy());
        return;
      }
      const answer = last.startsWith('问题：') ? TITLE : ANSWER;
      // Cut so that both tags fall across chunks.
      const content = `${THOUGHT}</think>\n\n${answer}`;
      const pieces = [content.slice(0, 10), content.slice(10, THOUGHT.length + 3), content.slice(THOUGHT.length + 3, THOUGHT.length + 12), content.slice(THOUGHT.length + 12)];
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'qwen3:8b', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      for (const piece of pieces) res.write(chunk({ content: piece }, null));
      res.write(chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  app = await startTestApp({ LLM_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`, LLM_MODEL: 'qwen3:8b' });
});
test.after.always(async () => {
  await app?.stop();
  model?.closeAllConnections();
  await new Promise<void>((resolve) => (model ? model.close(() => resolve()) : resolve()));
});

const isEnd = (replyId: string) => (message: any) => message.type === 'message' && message.content.content_type === 'message_end' && message.content.message_id === replyId;

test('a reasoning model’s thoughts reach neither the chat, nor its history, nor the title; each call asks at most the model’s output cap', async (t) => {
  const user = await signUp(app.url, 'thinker');
  const { body } = await user.request('POST', '/backend/conversation/sessions', { client_id: 'client-thinker' });
  const sessionId = body.session_id as string;
  const socket = await openSocket(app.url, 'client-thinker', user.token);
  socket.send({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe' } });
  await socket.next((m) => m.type === 'subscribed');
  const sent = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: sessionId, text: '什么是事件溯源？' });
  await socket.next(isEnd(sent.body.reply_id));
  const update = await socket.next((m) => m.type === 'metadata_update' && m.updated_fields.title !== undefined);
  t.is(update.updated_fields.title, TITLE);
  t.is(streamedText(socket.received.filter((m) => m.type === 'message'), sent.body.reply_id), ANSWER);
  const history = await user.request('GET', `/backend/conversation/sessions/${sessionId}/messages`);
  t.false(JSON.stringify(history.body).includes('想一想'));
  t.false(JSON.stringify(history.body).includes('think>'));
  // Qwen3's profile caps output at 8,192: no call asks more, whatever budget is left.
  t.true(asked.length >= 2);
  t.true(asked.every((request) => request.max_tokens !== undefined && request.max_tokens <= 8_192));
  socket.close();
});

test('a request the provider refuses ends the reply failed as agent.model_refused, saying why', async (t) => {
  const user = await signUp(app.url, 'refused');
  const { body } = await user.request('POST', '/backend/conversation/sessions', { client_id: 'client-refused' });
  const sessionId = body.session_id as string;
  const socket = await openSocket(app.url, 'client-refused', user.token);
  socket.send({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe' } });
  await socket.next((m) => m.type === 'subscribed');
  const sent = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: sessionId, text: '请拒绝这个请求' });
  const end = await socket.next(isEnd(sent.body.reply_id));
  t.is(end.content.outcome, 'failed');
  const error = socket.received.find((m) => m.type === 'message' && m.content.content_type === 'error' && m.content.message_id === sent.body.reply_id);
  t.like(error.content, { code: 'agent.model_refused', params: { reason: 'output_cap' } });
  t.is(error.content.error_message, '模型服务拒绝了这次请求：请求的回答长度超过了模型的输出上限。模型没有作答，请联系管理员检查模型配置');
  t.is(end.content.error_message, error.content.error_message);
  socket.close();
});

test('a chat reply cut midway is charged what streamed, and ends failed', async (t) => {
  const user = await signUp(app.url, 'cutoff');
  const { body } = await user.request('POST', '/backend/conversation/sessions', { client_id: 'client-cutoff' });
  const sessionId = body.session_id as string;
  const socket = await openSocket(app.url, 'client-cutoff', user.token);
  socket.send({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe' } });
  await socket.next((m) => m.type === 'subscribed');
  const sent = await user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: sessionId, text: '请中断这个回答' });
  const end = await socket.next(isEnd(sent.body.reply_id));
  t.is(end.content.outcome, 'failed');
  t.is(streamedText(socket.received.filter((m) => m.type === 'message'), sent.body.reply_id), CUT_TEXT);
  const charged = (await app.services.events.readStream(`conversation-${sessionId}`)).filter((event) => event.type === 'TokensConsumed').map((event) => event.data as { prompt: number; completion: number });
  t.is(charged.length, 1);
  t.true(charged[0]!.prompt > 0);
  t.is(charged[0]!.completion, estimateTokens(`</think>${CUT_TEXT}`));
  socket.close();
});
