/**
 * The product as a user meets it: started as its own process (`tsx backend/src/main.ts`, a fresh
 * DATA_DIR) that dies with the lab whatever happens, and driven only through its public HTTP routes
 * and its socket: register, sign in, open a session with web search on, ask, answer any clarification
 * by a fixed policy, wait for the reply to end, read the report, the title and the usage.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProduct, type Product } from '../support/product.ts';
import { openSocket, type TestSocket } from '../support/socket.ts';

export interface LabProduct {
  url: string;
  stop(): Promise<void>;
}

const live = new Set<Product>();

/** Kills every product still running; called on the lab's exit, normal or not. */
export function killProducts(): void {
  for (const product of live) product.child.kill('SIGKILL');
}

/**
 * Starts the product. It runs under `setpriv --pdeathsig KILL`, so the kernel kills it when the lab's
 * process dies, even by SIGKILL, when no exit handler can run.
 */
export async function startLabProduct(env: Record<string, string>): Promise<LabProduct> {
  const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-lab-'));
  const product = await startProduct(dataDir, { REGISTER_MAX_PER_ADDRESS: '10000', ...env }, { wrap: (argv) => ['setpriv', '--pdeathsig', 'KILL', ...argv] });
  live.add(product);
  return {
    url: product.url,
    async stop() {
      product.child.kill('SIGTERM');
      const timer = setTimeout(() => product.child.kill('SIGKILL'), 10_000);
      await product.exited;
      clearTimeout(timer);
      live.delete(product);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Http {
  token?: string;
  call(method: string, path: string, body?: unknown, form?: boolean): Promise<{ status: number; body: any }>;
}

export function http(baseUrl: string, token?: string): Http {
  return {
    token,
    async call(method, path, body, form = false) {
      const headers: Record<string, string> = {};
      if (this.token) headers.authorization = `Bearer ${this.token}`;
      let payload: string | undefined;
      if (body !== undefined) {
        headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
        payload = form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body);
      }
      const response = await fetch(`${baseUrl}/backend${path}`, { method, headers, body: payload });
      const text = await response.text();
      try {
        return { status: response.status, body: JSON.parse(text) };
      } catch {
        return { status: response.status, body: text };
      }
    },
  };
}

/** Registers a user and signs in. */
export async function newUser(baseUrl: string, username: string): Promise<Http & { id: string }> {
  const anonymous = http(baseUrl);
  const password = 'lab password 27';
  const registered = await anonymous.call('POST', '/auth/register', { username, email: `${username}@lab.example`, nickname: username, password });
  if (registered.status !== 200) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  const login = await anonymous.call('POST', '/auth/login', { username, password }, true);
  if (login.status !== 200) throw new Error(`login: ${login.status}`);
  return Object.assign(http(baseUrl, login.body.access_token as string), { id: registered.body.id as string });
}

/**
 * Gives a user extra budget as an administrator does (`coins` of TOKENS_PER_COIN tokens each), so a
 * long run on a real model is not cut by a new account's daily allowance.
 */
export async function grantBudget(baseUrl: string, admin: { username: string; password: string }, userId: string, coins: number): Promise<void> {
  const login = await http(baseUrl).call('POST', '/auth/admin/login', admin, true);
  if (login.status !== 200) throw new Error(`admin login: ${login.status}`);
  const granted = await http(baseUrl, login.body.access_token as string).call('POST', `/auth/admin/users/${userId}/extra-budget`, { amount: coins });
  if (granted.status !== 200) throw new Error(`extra budget: ${granted.status} ${JSON.stringify(granted.body)}`);
}

export type Outcome = 'completed' | 'failed' | 'interrupted' | 'timeout';

export interface ReplyEnd {
  replyId: string;
  outcome: Outcome;
  error?: string;
  /** Every socket item of the reply, in order. */
  items: any[];
}

export interface Conversation {
  sessionId: string;
  socket: TestSocket;
  user: Http;
}

/** A session with web search on, watched over the socket. */
export async function openConversation(baseUrl: string, user: Http, clientId: string): Promise<Conversation> {
  const created = await user.call('POST', '/conversation/api/v2/research/create_session', { client_id: clientId, search_enabled: true });
  if (created.status !== 200) throw new Error(`create_session: ${created.status} ${JSON.stringify(created.body)}`);
  const sessionId = created.body.session_id as string;
  const socket = await openSocket(baseUrl, clientId, user.token);
  socket.send({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe' } });
  await socket.next((message) => message.type === 'subscribed');
  return { sessionId, socket, user };
}

const itemsOf = (socket: TestSocket, replyId: string) => socket.received.filter((message) => message.type === 'message' && message.content.message_id === replyId).map((message) => message.content);

/**
 * Waits for a reply to end: `message_end`, or the feedback request that ends a research reply the
 * user may now react to (past `earlierRequests` of them, for a revision). A clarification on the way is answered by the fixed policy: each question's
 * first option, and for a text question a fixed sentence in the question's language.
 */
export async function awaitReply(conversation: Conversation, replyId: string, timeoutMs: number, earlierRequests = 0): Promise<ReplyEnd> {
  const { socket, user, sessionId } = conversation;
  const mine = (type: string) => (message: any) => message.type === 'message' && message.content.message_id === replyId && message.content.content_type === type;
  const deadline = Date.now() + timeoutMs;
  // A revision's reply already had its questions answered.
  let answered = earlierRequests > 0;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return { replyId, outcome: 'timeout', items: itemsOf(socket, replyId) };
    let next: any;
    // A revision ends at the reply's next feedback request: the earlier ones are the versions before it.
    let requests = 0;
    try {
      next = await socket.next((message) => mine('message_end')(message) || (mine('feedback_request')(message) && ++requests > earlierRequests) || (!answered && mine('clarification')(message)), left);
    } catch {
      return { replyId, outcome: 'timeout', items: itemsOf(socket, replyId) };
    }
    const type = next.content.content_type as string;
    if (type === 'clarification') {
      answered = true;
      const zh = /\p{Script=Han}/u.test(JSON.stringify(next.content.questions));
      const answers = next.content.questions.map((question: any) => ({
        id: question.id,
        question: question.question_content,
        selectedOptions: question.question_options.slice(0, 1),
        textInput: question.question_type === 'text' ? (zh ? '全面介绍即可' : 'A broad overview is fine') : '',
        question_type: question.question_type,
      }));
      const reply = await user.call('POST', `/conversation/research/${sessionId}/clarification_answer`, { answers });
      if (reply.status !== 200) throw new Error(`clarification_answer: ${reply.status} ${JSON.stringify(reply.body)}`);
      continue;
    }
    if (type === 'feedback_request') return { replyId, outcome: 'completed', items: itemsOf(socket, replyId) };
    const outcome = next.content.outcome as Outcome;
    return { replyId, outcome, ...(next.content.error_message && { error: next.content.error_message as string }), items: itemsOf(socket, replyId) };
  }
}

/** Answers a research reply's feedback request, as the feedback card does: go deeper, or revise as `text` asks. */
export async function giveFeedback(conversation: Conversation, option: 'continue' | 'manual_feedback', text?: string): Promise<void> {
  const given = await conversation.user.call('POST', `/conversation/research/${conversation.sessionId}/feedback`, { option, ...(text && { text }) });
  if (given.status !== 200) throw new Error(`feedback: ${given.status} ${JSON.stringify(given.body)}`);
}

/** Asks a research question; returns the reply's id. */
export async function ask(conversation: Conversation, question: string): Promise<string> {
  const started = await conversation.user.call('POST', '/conversation/research/start', { session_id: conversation.sessionId, message: question });
  if (started.status !== 200) throw new Error(`research/start: ${started.status} ${JSON.stringify(started.body)}`);
  return started.body.reply_id as string;
}

/** The product's resume route for a reply that did not finish: the new reply's id, or the refusal. */
export async function resume(conversation: Conversation): Promise<{ replyId: string } | { refused: number; code?: string }> {
  const resumed = await conversation.user.call('POST', `/conversation/research/${conversation.sessionId}/resume`);
  if (resumed.status !== 200) return { refused: resumed.status, ...(resumed.body?.code && { code: resumed.body.code as string }) };
  return { replyId: resumed.body.reply_id as string };
}

/** The newest report version, its title and content; null when none was saved. */
export async function latestReport(conversation: Conversation): Promise<{ title: string; content: string } | null> {
  const canvas = await conversation.user.call('GET', `/conversation/research/${conversation.sessionId}/canvas`);
  const version = canvas.body?.versions?.at(-1);
  return version ? { title: String(version.title ?? ''), content: String(version.content ?? '') } : null;
}

export async function sessionTitle(conversation: Conversation): Promise<string> {
  const chats = await conversation.user.call('GET', '/conversation/api/chats/my?limit=100');
  return String(chats.body?.chats?.find((chat: any) => chat.id === conversation.sessionId)?.title ?? '');
}

/** What the product charged the session, by its usage API. */
export async function chargedTokens(conversation: Conversation): Promise<{ prompt: number; completion: number }> {
  const usage = await conversation.user.call('GET', '/conversation/api/user/token-usage');
  const session = usage.body?.sessions?.find((entry: any) => entry.session_id === conversation.sessionId);
  return { prompt: Number(session?.prompt_tokens ?? 0), completion: Number(session?.completion_tokens ?? 0) };
}
