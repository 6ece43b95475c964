import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { client, type Client } from './app.ts';
import { cognitionFromNotes } from './cognition.ts';
import { buildDeck } from './decks.ts';

// The kernel's limits are below some of the contracts' zod limits (cognition title 120 against 240,
// collection name 100 against 200, agent name 60 against 120): the world stays within the kernel's.

/**
 * One user's whole world, made through the API: a session with a written canvas version, an uploaded
 * context, a note (shared), a cognition in a collection, an agent, a trajectory (shared), a session
 * share, a feedback, an authorised app. Every field the user types is `text`, so the XSS suite can fill the world with
 * payloads and the authorisation matrix with plain words; the ids fill the routes' path parameters.
 */
export interface World {
  sessionId: string;
  replyId: string;
  canvasVersion: number;
  contextId: string;
  fileId: string;
  noteId: string;
  noteRevision: number;
  noteShareToken: string;
  cognitionId: string;
  /** A second one, since a synthesis takes at least two. */
  secondCognitionId: string;
  collectionId: string;
  extractionId: string;
  agentId: string;
  trajectoryId: string;
  trajectoryShareToken: string;
  sessionShareId: string;
  engineerSessionId: string;
  engineerNodeId: string;
  engineerCommandId: string;
  /** An app the user authorised (the CLI, through the PKCE flow). */
  oauthGrantId: string;
  /** A password sign-in of the command line, listed beside the apps she authorised. */
  appSignInId: string;
  /** A presentation review, finished (by the offline engine when no model is configured). */
  deckReviewId: string;
  /** A shared document of the user's. */
  collabDocId: string;
  /** A read link to another of her documents: whoever accepts it joins that one, never `collabDocId`. */
  collabInviteToken: string;
  /** A link to `collabDocId` nobody uses: what revoking names. */
  collabInviteId: string;
}

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 9, minute)).toISOString();

/** A trajectory as the engineer CLI uploads it, with `text` where the engineer typed. */
export const trajectory = (sessionId: string, text: string) => ({
  title: text,
  description: text,
  metadata: { session_id: sessionId, project_name: text.slice(0, 200) },
  events: [
    { event_type: 'session_start', timestamp: at(0) },
    { event_type: 'user_query', timestamp: at(1), query: text },
    { event_type: 'assistant_response', timestamp: at(2), content: text, model: 'offline', tokens: 4 },
    { event_type: 'session_end', timestamp: at(3) },
  ],
});

/** Waits until the session's reply has ended, as the client does by polling its status. */
export async function replyEnded(user: Client, sessionId: string): Promise<void> {
  for (let tries = 0; tries < 1500; tries++) {
    if (!(await user.request('GET', `/backend/conversation/research/${sessionId}/status`)).body.processing) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`session ${sessionId} still processing`);
}

async function ok(what: string, response: Promise<{ status: number; body: any }>): Promise<any> {
  const { status, body } = await response;
  if (status < 200 || status >= 300) throw new Error(`${what}: ${status} ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** Multipart upload (the contract's `multipart` routes), as the browser's FormData sends it. */
export async function upload(baseUrl: string, token: string | undefined, path: string, fields: Record<string, string>, file?: { name: string; bytes: Uint8Array }) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: 'application/octet-stream' }), file.name);
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: token ? { authorization: `Bearer ${token}` } : {}, body: form });
  const raw = await response.text();
  let body: unknown = raw;
  try {
    body = JSON.parse(raw);
  } catch {
    /* a non-JSON answer is kept as text */
  }
  return { status: response.status, body: body as any };
}

export const ZH_TEXT = readFileSync(new URL('../fixtures/zh.txt', import.meta.url));

/** The user approves the command-line assistant on the consent page and the code is exchanged; the grant's id. */
async function authorisedApp(baseUrl: string, user: Client): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const redirect = 'http://127.0.0.1:9/callback';
  const params = { response_type: 'code', client_id: 'scriptorium-cli', redirect_uri: redirect, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', decision: 'approve' };
  const answered = await ok('oauth consent', user.request('POST', '/backend/oauth/authorize', params));
  const code = new URL(answered.redirect_to).searchParams.get('code')!;
  const form = { grant_type: 'authorization_code', code, redirect_uri: redirect, code_verifier: verifier, client_id: 'scriptorium-cli' };
  const tokens = await ok('oauth token', client(baseUrl).request('POST', '/backend/oauth/token', form, { form: true }));
  return JSON.parse(Buffer.from(String(tokens.access_token).split('.')[1]!, 'base64url').toString()).grant as string;
}

/** The user signs the command line in with her password, as `login --password` does. */
async function appSignIn(baseUrl: string, user: Client, password: string): Promise<string> {
  const { username } = await ok('me', user.request('GET', '/backend/auth/me'));
  const login = await ok('app sign-in', client(baseUrl).request('POST', '/backend/auth/login', { username, password, client_id: 'scriptorium-cli', device_name: 'world' }, { form: true }));
  return JSON.parse(Buffer.from(String(login.access_token).split('.')[1]!, 'base64url').toString()).sid as string;
}

/** `password`: the user's, for the command line's sign-in (signUp's default unless said). */
export async function buildWorld(baseUrl: string, user: Client, text: string, password = 'correct horse battery'): Promise<World> {
  const sessionId = (await ok('session', user.request('POST', '/backend/conversation/api/v2/research/create_session', { client_id: 'world', name: text.slice(0, 100) }))).session_id as string;
  await ok('title', user.request('PUT', `/backend/conversation/api/v2/sessions/${sessionId}/title`, { title: text.slice(0, 200) }));
  // The offline writing agent saves a canvas version whose text is the user's request.
  await ok('dispatch', user.request('POST', `/backend/conversation/sessions/${sessionId}/dispatch`, { agent: 'direct_writing_agent', action: 'send', params: { text } }));
  await replyEnded(user, sessionId);
  const history = await ok('messages', user.request('GET', `/backend/conversation/sessions/${sessionId}/messages`));
  const replyId = (history.messages as any[]).find((message) => message.role !== 'user')?.message_id as string;
  const canvas = await ok('canvas', user.request('GET', `/backend/conversation/research/${sessionId}/canvas`));
  const latest = canvas.versions.at(-1).version as number;
  // The user's own edit of the canvas: their text verbatim, markdown and all.
  await ok('canvas edit', user.request('PUT', `/backend/conversation/research/${sessionId}/canvas`, { content: `# ${text}\n\n${text}\n\n[link](${text})`, title: text.slice(0, 200), from_version: latest }));
  const canvasVersion = (await ok('canvas', user.request('GET', `/backend/conversation/research/${sessionId}/canvas`))).versions.at(-1).version as number;
  const context = await upload(baseUrl, user.token, '/backend/conversation/v2/research/upload_file', { conversation_id: sessionId, file_type: 'file' }, { name: 'zh.txt', bytes: ZH_TEXT });
  if (context.status !== 200) throw new Error(`upload: ${context.status} ${JSON.stringify(context.body)}`);
  const file = await upload(baseUrl, user.token, '/backend/conversation/api/upload_file', {}, { name: 'zh.txt', bytes: ZH_TEXT });
  if (file.status !== 200) throw new Error(`upload_file: ${file.status} ${JSON.stringify(file.body)}`);

  const note = await ok('note', user.request('POST', '/backend/api/notes', { name: text.slice(0, 200), content: `# ${text}\n\n${text}` }));
  const noteShare = await ok('note share', user.request('POST', `/backend/api/notes/${note.id}/share`, { expires_days: 7 }));
  const cognitionId = await cognitionFromNotes(user, [{ name: text.slice(0, 200), content: `${text}。钠离子电池的成本比锂电池低三成。` }]);
  await ok('cognition', user.request('PATCH', `/backend/api/cognition/${cognitionId}`, { title: text.slice(0, 120), summary: text.slice(0, 500), tags: [text.slice(0, 20)] }));
  const secondCognitionId = await cognitionFromNotes(user, [{ name: '储能', content: '储能电站更看重钠离子电池的成本。新型储能的装机规模去年翻了一番。' }]);
  const extraction = await ok('extract', user.request('POST', '/backend/api/cognition/extract', { note_ids: [note.id] }));
  const collection = await ok('collection', user.request('POST', '/backend/api/cognition/collections', { name: text.slice(0, 100), description: text.slice(0, 500) }));
  await ok('collect', user.request('POST', `/backend/api/cognition/collections/${collection.id}/items`, { cognition_id: cognitionId }));
  const agent = await ok('agent', user.request('POST', '/backend/api/agents', { name: text.slice(0, 60), description: text.slice(0, 300), instructions: text.slice(0, 4000), tools: ['calculator'] }));
  const trajectoryFile = await ok('trajectory', user.request('POST', '/backend/engineer/trajectory/files', trajectory(`world-${sessionId}`, text)));
  const trajectoryShare = await ok('trajectory share', user.request('POST', '/backend/engineer/trajectory/share', { file_id: trajectoryFile.file_id }));
  const sessionShare = await ok('session share', user.request('POST', '/backend/conversation/sessions/share', { session_id: sessionId, title: text.slice(0, 200), description: text.slice(0, 2000) }));
  await ok('feedback', user.request('POST', '/backend/email/user-feedback', { feedback_type: 'general', feedback_text: text }));
  const noteNow = await ok('note', user.request('GET', `/backend/api/notes/${note.id}`));
  const engineer = await ok('engineer session', user.request('POST', '/backend/api/ai-engineer/sessions', { title: text.slice(0, 200), task_description: text }));
  const engineerNodeId = `node-${sessionId}`;
  await ok('engineer node', user.request('POST', `/backend/api/ai-engineer/sessions/${engineer.id}/nodes`, { nodes: [{ id: engineerNodeId, node_type: 'message', timestamp: at(1), payload: { role: 'user', text } }] }));
  const engineerCommand = await ok('engineer command', user.request('POST', `/backend/api/ai-engineer/sessions/${engineer.id}/commands`, { command_type: 'message', content: text.slice(0, 200) }));
  const oauthGrantId = await authorisedApp(baseUrl, user);
  const appSignInId = await appSignIn(baseUrl, user, password);
  const deck = await upload(baseUrl, user.token, '/backend/api/ppt/reviews', { language: 'zh' }, { name: 'world.pptx', bytes: await buildDeck([{ title: text.slice(0, 200), bullets: [text.slice(0, 500)], notes: text.slice(0, 500) }]) });
  if (deck.status !== 202) throw new Error(`deck review: ${deck.status} ${JSON.stringify(deck.body).slice(0, 300)}`);
  const deckReviewId = deck.body.review_id as string;
  // Finished before the world is used, so no review job appends while a suite compares the log.
  for (let tries = 0; ; tries++) {
    const status = (await ok('deck review', user.request('GET', `/backend/api/ppt/reviews/${deckReviewId}`))).status;
    if (status === 'completed' || status === 'failed') break;
    if (tries > 1500) throw new Error('the world’s deck review did not finish');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const collabDoc = await ok('collab doc', user.request('POST', '/backend/api/collab/docs', { title: text.slice(0, 200) }));
  const invitedDoc = await ok('collab doc', user.request('POST', '/backend/api/collab/docs', { title: text.slice(0, 200) }));
  const collabInvite = await ok('collab invite', user.request('POST', `/backend/api/collab/docs/${invitedDoc.id}/invites`, { role: 'read' }));
  const unusedInvite = await ok('collab invite', user.request('POST', `/backend/api/collab/docs/${collabDoc.id}/invites`, { role: 'edit' }));
  return {
    deckReviewId,
    oauthGrantId,
    appSignInId,
    collabDocId: collabDoc.id,
    collabInviteToken: collabInvite.token,
    collabInviteId: unusedInvite.id,
    sessionId,
    replyId,
    canvasVersion,
    contextId: context.body.data.context_id,
    fileId: String(file.body.data.file_url).split('/').at(-1)!,
    noteId: note.id,
    noteRevision: noteNow.revision ?? 0,
    noteShareToken: noteShare.token ?? noteShare.share_token,
    cognitionId,
    secondCognitionId,
    collectionId: collection.id,
    extractionId: extraction.extraction_id,
    agentId: agent.id,
    trajectoryId: trajectoryFile.file_id,
    trajectoryShareToken: trajectoryShare.share_token ?? trajectoryShare.token,
    sessionShareId: sessionShare.share_id ?? sessionShare.id,
    engineerSessionId: engineer.id,
    engineerNodeId,
    engineerCommandId: engineerCommand.id,
  };
}
