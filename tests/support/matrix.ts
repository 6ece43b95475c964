import type { World } from './world.ts';

/**
 * How to fill each declared route with alice's real ids, and who may call it beyond what its declared
 * `access` implies. The authorisation matrix and the fuzzer both read it; a route missing here fails
 * the matrix, so a new route gets a decision.
 */

export type Role = 'anonymous' | 'user' | 'other' | 'admin' | 'inactive' | 'auditor';
/** `ok`: served (below 500, not 401/403, and not 404 on alice's own things); `denied`: 403 or 404, never her data. */
export type Outcome = 'ok' | 'denied' | 401 | 403;

export interface Ids {
  alice: string;
  claim: string;
}

export interface Entry {
  params?: (w: World, ids: Ids) => Record<string, string>;
  query?: (w: World) => Record<string, string>;
  /** Omitted: the smallest body the contract's schema accepts. */
  body?: (w: World, ids: Ids) => unknown;
  /** The request names something of alice's, in its path or body: only she may act on it. */
  owned?: boolean;
  /** Departures from what `access` and `owned` imply, each with its reason beside it. */
  expect?: Partial<Record<Role, Outcome>>;
  /** The request revokes the token it is sent with (logout), so it gets a fresh one. */
  freshToken?: boolean;
  /** A refusal of this route is itself recorded (a wrong code counts towards the attempts left), so the log moves. */
  recordsRefusal?: boolean;
  /** Alice's own request may find nothing (its id is made up or consumed earlier in the run). */
  mayBeMissing?: boolean;
}

const session = { params: (w: World) => ({ id: w.sessionId }), owned: true };
const note = { params: (w: World) => ({ id: w.noteId }), owned: true };
const cognition = { params: (w: World) => ({ id: w.cognitionId }), owned: true };
const collection = { params: (w: World) => ({ id: w.collectionId }), owned: true };
const agent = { params: (w: World) => ({ id: w.agentId }), owned: true };
const trajectory = { params: (w: World) => ({ id: w.trajectoryId }), owned: true };
const engineer = { params: (w: World) => ({ id: w.engineerSessionId }), owned: true };
/**
 * Alice's recorded (not demo) session: a demo's job would keep appending while the matrix compares the
 * log before and after each refusal, so her own call may answer 404 ("not a demo") here.
 */
const demo = { params: (w: World) => ({ id: w.engineerSessionId }), owned: true, mayBeMissing: true };
const collabDoc = { params: (w: World) => ({ id: w.collabDocId }), owned: true };
const aliceUser = { params: (_w: World, ids: Ids) => ({ id: ids.alice }) };
const inSession = (extra: Record<string, unknown> = {}) => ({ body: (w: World) => ({ session_id: w.sessionId, ...extra }), owned: true });
const inConversation = (extra: Record<string, unknown> = {}) => ({ body: (w: World) => ({ conversation_id: w.sessionId, ...extra }), owned: true });
/** Anyone may read what was published; the share's link is the capability. */
const published = (params: (w: World) => Record<string, string>): Entry => ({ params });
const PROJECTION = 'cli_leaderboard';
export const PASSWORD = 'correct horse battery';

export const TABLE: Record<string, Entry> = {
  'GET /backend/auth/registration-settings': {},
  'POST /backend/auth/register': { body: () => ({ username: `reg_${Math.random().toString(36).slice(2, 10)}`, email: `${Math.random().toString(36).slice(2)}@example.com`, password: PASSWORD }) },
  'POST /backend/auth/login': { body: () => ({ username: 'alice', password: PASSWORD }) },
  'POST /backend/auth/admin/login': { body: () => ({ username: 'root', password: 'root-password' }) },
  'POST /backend/auth/logout': { freshToken: true },
  // The one route a deactivated account may call, so the client can show it the draft page.
  'GET /backend/auth/me': { expect: { inactive: 'ok' } },
  // Administrators edit any account's profile.
  'PATCH /backend/users/:id': { ...aliceUser, body: () => ({ nickname: 'Alice' }), owned: true, expect: { admin: 'ok' } },
  'POST /backend/auth/send-verification-email': { body: () => ({ email: `send-${Math.random().toString(36).slice(2)}@example.com` }) },
  'POST /backend/auth/resend-verification-email': { body: () => ({ email: `resend-${Math.random().toString(36).slice(2)}@example.com` }) },
  'POST /backend/auth/verify-email': { body: () => ({ email: 'nobody@example.com', code: '123456' }), recordsRefusal: true },
  // A wrong current password (400): a right one would end alice's sign-ins for the rest of the run.
  'POST /backend/auth/password': { body: () => ({ current_password: 'not the password', new_password: 'another passphrase' }) },
  'POST /backend/auth/password-reset/request': { body: () => ({ email: 'nobody@example.com' }) },
  'POST /backend/auth/password-reset': { body: () => ({ email: 'nobody@example.com', code: '123456', new_password: 'another passphrase' }) },
  // Nobody's id: resetting alice's would end her sign-ins for the rest of the run.
  'PUT /backend/auth/admin/users/:id/password': { params: () => ({ id: 'no-such-user' }), body: () => ({ new_password: 'another passphrase' }) },
  'GET /backend/auth/admin/users': {},
  // The consent page's calls: a denial appends nothing, so every caller may send it; the redirect is a loopback one.
  'GET /backend/oauth/authorize': { query: () => ({ response_type: 'code', client_id: 'scriptorium-cli', redirect_uri: 'http://127.0.0.1:9/callback', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }) },
  'POST /backend/oauth/authorize': { body: () => ({ response_type: 'code', client_id: 'scriptorium-cli', redirect_uri: 'http://127.0.0.1:9/callback', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', decision: 'deny' }) },
  // Public clients authenticate by their id alone; a made-up refresh token is refused with invalid_grant.
  'POST /backend/oauth/token': { body: () => ({ grant_type: 'refresh_token', refresh_token: `${'0'.repeat(32)}.${'A'.repeat(43)}`, client_id: 'scriptorium-cli' }) },
  'POST /backend/oauth/revoke': { body: () => ({ token: 'unknown', client_id: 'scriptorium-cli' }) },
  'GET /backend/oauth/grants': {},
  'DELETE /backend/oauth/grants/:id': { params: (w) => ({ id: w.oauthGrantId }), owned: true },
  'GET /backend/auth/app-sign-ins': {},
  'DELETE /backend/auth/app-sign-ins/:id': { params: (w) => ({ id: w.appSignInId }), owned: true },
  'PUT /backend/auth/admin/users/:id/active': { ...aliceUser, body: () => ({ is_active: true }) },
  'POST /backend/auth/admin/users/batch-active': { body: (_w, ids) => ({ user_ids: [ids.alice], is_active: true }) },
  'GET /backend/auth/admin/users/token-overview': {},
  'GET /backend/auth/admin/users/:id/token-info': aliceUser,
  'GET /backend/auth/admin/users/:id/token-usage': aliceUser,
  'PUT /backend/auth/admin/users/:id/token-limit': { ...aliceUser, body: () => ({ token_level_limit: 150 }) },
  'POST /backend/auth/admin/users/:id/extra-budget': { ...aliceUser, body: () => ({ amount: 1 }) },
  'PUT /backend/auth/admin/users/:id/level': { ...aliceUser, body: (_w, ids) => ({ user_id: ids.alice, level: 'premium', membership_expires_at: '2099-01-01T00:00:00Z' }) },
  'POST /backend/auth/admin/users/:id/refresh-tokens': aliceUser,
  'POST /backend/auth/admin/users/batch-refresh-tokens': { body: (_w, ids) => ({ user_ids: [ids.alice] }) },
  'POST /backend/auth/admin/users/batch-update-level': { body: (_w, ids) => [{ user_id: ids.alice, level: 'basic', membership_expires_at: null }] },
  'PUT /backend/auth/admin/users/batch-token-limit': { body: (_w, ids) => ({ user_ids: [ids.alice], token_level_limit: 100 }) },
  'POST /backend/auth/admin/users/batch-extra-budget': { body: (_w, ids) => ({ user_ids: [ids.alice], amount: 1 }) },
  'POST /backend/auth/admin/invite-codes/generate': { body: () => ({ count: 1 }) },
  'GET /backend/auth/admin/invite-codes': {},
  'GET /backend/admin/connections': {},
  'GET /backend/admin/connections/profile': { query: () => ({ model: 'qwen3:14b' }) },
  // A role of its own on a closed port: what the matrix's other calls use stays as it was.
  'POST /backend/admin/connections/models': { body: () => ({ base_url: 'http://127.0.0.1:9/v1', model: 'matrix-model', roles: ['summarising'] }) },
  'PUT /backend/admin/connections/models/:id': { params: () => ({ id: 'no-such-endpoint' }), body: () => ({ base_url: 'http://127.0.0.1:9/v1', model: 'matrix-model', roles: ['summarising'] }) },
  'DELETE /backend/admin/connections/models/:id': { params: () => ({ id: 'no-such-endpoint' }) },
  'POST /backend/admin/connections/models/:id/test': { params: () => ({ id: 'no-such-endpoint' }) },
  'PUT /backend/admin/connections/search': { body: () => ({ url: 'http://127.0.0.1:9' }) },
  'DELETE /backend/admin/connections/search': {},
  'POST /backend/admin/connections/search/test': {},
  'PUT /backend/admin/connections/smtp': { body: () => ({ url: 'smtp://127.0.0.1:9', from: 'matrix@example.com' }) },
  'DELETE /backend/admin/connections/smtp': {},
  'POST /backend/admin/connections/smtp/test': {},
  'PUT /backend/admin/connections/speech': { body: () => ({ base_url: 'http://127.0.0.1:9/v1', model: 'whisper-1' }) },
  'DELETE /backend/admin/connections/speech': {},
  'POST /backend/admin/connections/speech/test': {},
  // An unknown code: refused as not found, for an administrator too, so nothing changes.
  'POST /backend/auth/admin/invite-codes/:code/revoke': { params: () => ({ code: 'NOSUCH22' }) },
  'POST /backend/auth/admin/send-email': { body: () => ({ to_email: 'x@example.com', subject: '主题', content: '内容' }) },
  'GET /backend/auth/admin/feedback': {},
  'GET /backend/auth/admin/outbox': {},
  'GET /backend/auth/admin/dashboard': {},
  'GET /backend/auth/user/token-info': {},
  'GET /backend/auth/user/token-usage': {},
  'GET /backend/conversation/api/user/token-usage': {},
  'GET /backend/conversation/api/admin/token-usage': {},
  'GET /backend/conversation/api/admin/sessions-token-usage': {},
  'GET /backend/api/tasks/types': {},
  'POST /backend/api/tasks/init': {},
  'POST /backend/api/tasks/ensure-daily': {},
  'GET /backend/api/tasks/summary': {},
  'POST /backend/api/tasks/action': { body: () => ({ action_type: 'view_cognition', target_id: 'authz' }) },
  // Each caller claims from their own day's tasks: the id names a task kind, not alice's task; unfinished is a 4xx.
  'POST /backend/api/tasks/claim/:id': { params: (_w, ids) => ({ id: ids.claim }), mayBeMissing: true },
  'GET /backend/api/coins/balance': {},
  'POST /backend/email/user-feedback': { body: () => ({ feedback_type: 'general', feedback_text: '权限矩阵' }) },
  'POST /backend/conversation/sessions': {},
  'POST /backend/conversation/api/v2/research/create_session': {},
  'POST /backend/conversation/api/v2/research/start': inSession({ message: '钠电池' }),
  'POST /backend/conversation/research/start': inSession({ message: '钠电池' }),
  'POST /backend/conversation/api/v2/chat/send': inSession({ message: '你好' }),
  'POST /backend/api/v2/chat/poe/start': inSession({ text: '你好' }),
  'POST /backend/api/conversations/chat': inSession({ message: '你好' }),
  'POST /backend/conversation/api/v2/research/update_status': inSession({ status: 'active' }),
  'POST /backend/conversation/api/v2/research/update_search_status': inSession({ search_enabled: true }),
  'POST /backend/conversation/api/v2/research/set_mode': inSession({ mode: 1 }),
  'PUT /backend/conversation/api/v2/sessions/:id/title': { ...session, body: () => ({ title: '标题' }) },
  'PUT /backend/conversation/api/v2/sessions/:id/name': { ...session, body: () => ({ name: '名字' }) },
  'GET /backend/conversation/sessions/:id/messages': session,
  'GET /backend/conversation/research/:id': session,
  'GET /backend/conversation/research/:id/status': session,
  'POST /backend/conversation/research/:id/pause': session,
  'POST /backend/conversation/research/:id/resume': session,
  'POST /backend/conversation/sessions/:id/dispatch': { ...session, body: () => ({ agent: 'poe_llm', action: 'pause' }) },
  'GET /backend/conversation/api/chats/my': {},
  'GET /backend/conversation/api/models/available': {},
  'POST /backend/conversation/api/models/preferences': { body: () => ({ model: 'offline' }) },
  'POST /backend/conversation/api/v2/query/refine': { body: () => ({ query: '钠电池' }) },
  'POST /backend/conversation/research/:id/clarification_answer': { ...session, body: () => ({ answers: [{ id: 'q1' }] }) },
  'GET /backend/conversation/research/:id/pending_questions': session,
  'POST /backend/conversation/research/:id/feedback': { ...session, body: () => ({ option: 'satisfied' }) },
  'PUT /backend/conversation/research/:id/plan': { ...session, body: () => ({ steps: [{ description: '梳理技术路线', queries: ['固态电池 技术路线'] }] }) },
  'POST /backend/conversation/research/:id/plan/start': session,
  'GET /backend/conversation/api/v2/research/budget': {},
  'GET /backend/conversation/api/preferences/plan_review': {},
  'PUT /backend/conversation/api/preferences/plan_review': { body: () => ({ review_plans: false }) },
  'POST /backend/conversation/research/:id/edit_request': { ...session, body: () => ({ text: '改短', snippet: '钠' }) },
  'GET /backend/conversation/research/:id/canvas': session,
  'POST /backend/conversation/research/report_feedback': { body: (w) => ({ conversation_id: w.sessionId, version: w.canvasVersion, rating: 'helpful' }), owned: true },
  'PUT /backend/conversation/research/:id/canvas': { ...session, body: (w) => ({ content: '# 改', from_version: w.canvasVersion }) },
  'GET /backend/conversation/research/:id/canvas/:version/markdown': { params: (w) => ({ id: w.sessionId, version: String(w.canvasVersion) }), owned: true },
  'POST /backend/conversation/sessions/share': inSession(),
  'DELETE /backend/conversation/share/:shareId': { params: (w) => ({ shareId: w.sessionShareId }), owned: true },
  'GET /backend/conversation/share/:shareId': published((w) => ({ shareId: w.sessionShareId })),
  // The share's own detail for its owner (the dialog), not the public page.
  'GET /backend/conversation/api/research/share/:id': session,
  'POST /backend/conversation/artifacts/share': { body: (w) => ({ session_id: w.sessionId, message_id: w.replyId, filename: 'a.html' }), owned: true, mayBeMissing: true },
  // No artifact in the world: the link is made up, so everyone gets the same 404.
  'GET /backend/conversation/artifact-share/:shareId': { params: () => ({ shareId: 'missing-share' }) },
  'GET /backend/conversation/share/:shareId/pdf': published((w) => ({ shareId: w.sessionShareId })),
  'POST /backend/conversation/v2/research/upload_file': { body: (w) => ({ conversation_id: w.sessionId, file_type: 'file' }), owned: true },
  'POST /backend/conversation/api/upload_file': {},
  'POST /backend/api/ppt/reviews': {},
  'GET /backend/api/ppt/reviews': {},
  'GET /backend/api/ppt/reviews/:id': { params: (w) => ({ id: w.deckReviewId }), owned: true },
  'GET /backend/api/ppt/reviews/:id/export': { params: (w) => ({ id: w.deckReviewId }), query: () => ({ format: 'md' }), owned: true },
  'GET /backend/conversation/api/files/:id': { params: (w) => ({ id: w.fileId }), owned: true },
  'GET /backend/conversation/api/research/contexts/:id': session,
  'POST /backend/conversation/api/research/contexts/delete': { body: (w) => ({ conversation_id: w.sessionId, context_id: w.contextId }), owned: true },
  'GET /backend/conversation/api/research/request_context/:id': { params: (w) => ({ id: w.contextId }), query: (w) => ({ conversation_id: w.sessionId }), owned: true, mayBeMissing: true },
  'POST /backend/conversation/api/research/select_note/:id': { ...note, ...inConversation() },
  'GET /backend/conversation/api/research/content_preference/:id': session,
  'POST /backend/conversation/api/research/content_preference': inConversation({ length: 'short' }),
  'POST /backend/api/markdown-to-pdf': { body: () => ({ markdown_content: '# 标题' }) },
  'GET /backend/conversation/api/v2/asr/status': {},
  'POST /backend/conversation/api/v2/asr/short': { body: () => ({ language: 'zh' }) },
  'POST /backend/conversation/api/v2/asr/short_to_question/:id': { ...session, body: () => ({ language: 'zh' }) },
  'GET /backend/api/notes': {},
  'POST /backend/api/notes': {},
  'GET /backend/api/notes/shared/:token': published((w) => ({ token: w.noteShareToken })),
  'GET /backend/api/notes/:id': note,
  'PATCH /backend/api/notes/:id': { ...note, body: () => ({ name: '改名' }) },
  'PUT /backend/api/notes/:id/content': { ...note, body: (w) => ({ content: '新内容', revision: w.noteRevision }) },
  'POST /backend/api/notes/:id/move': { ...note, body: () => ({ target_id: null, position: 'inside' }) },
  'DELETE /backend/api/notes/:id': note,
  'POST /backend/api/notes/:id/share': { ...note, body: () => ({ expires_days: 7 }) },
  'DELETE /backend/api/notes/:id/share': note,
  'GET /backend/api/cognition': {},
  'POST /backend/api/cognition/extract': { body: (w) => ({ note_ids: [w.noteId] }), owned: true },
  // Fetching a page is refused before any network access here (no search or fetch configured); still not a 5xx.
  'POST /backend/api/cognition/extract-url': { body: () => ({ url: 'http://127.0.0.1:1/' }) },
  'POST /backend/api/cognition/synthesize': { body: (w) => ({ cognition_ids: [w.cognitionId, w.secondCognitionId] }), owned: true },
  'GET /backend/api/cognition/extractions/:id': { params: (w) => ({ id: w.extractionId }), owned: true },
  'GET /backend/api/cognition/collections': {},
  'POST /backend/api/cognition/collections': { body: () => ({ name: '收藏' }) },
  'GET /backend/api/cognition/collections/:id': collection,
  'PATCH /backend/api/cognition/collections/:id': { ...collection, body: () => ({ name: '改名' }) },
  'DELETE /backend/api/cognition/collections/:id': collection,
  'POST /backend/api/cognition/collections/:id/items': { ...collection, body: (w) => ({ cognition_id: w.cognitionId }) },
  'DELETE /backend/api/cognition/collections/:id/items/:cognitionId': { params: (w) => ({ id: w.collectionId, cognitionId: w.cognitionId }), owned: true },
  // A private cognition: a stranger, signed in or not, must not learn it exists.
  'GET /backend/api/cognition/:id': cognition,
  'POST /backend/api/cognition/:id/view': cognition,
  'PATCH /backend/api/cognition/:id': { ...cognition, body: () => ({ title: '改' }) },
  'DELETE /backend/api/cognition/:id': cognition,
  'POST /backend/engineer/v1/chat/completions': { body: () => ({ messages: [{ role: 'user', content: '你好' }] }) },
  'GET /backend/engineer/v1/models': {},
  // The test app runs the offline engine, the one model it serves.
  'GET /backend/engineer/v1/models/:id': { params: () => ({ id: 'offline' }) },
  'GET /backend/api/agents': {},
  'POST /backend/api/agents': { body: () => ({ name: '助手', instructions: '简短' }) },
  'POST /backend/api/agents/tools/test': { body: (w) => ({ tool: 'calculator', args: { expression: '1+1' }, agent_id: w.agentId }), owned: true },
  'GET /backend/api/agents/:id': agent,
  'PATCH /backend/api/agents/:id': { ...agent, body: () => ({ name: '改名' }) },
  'DELETE /backend/api/agents/:id': agent,
  'POST /backend/engineer/trajectory/files': {},
  'GET /backend/engineer/trajectory/files': {},
  'GET /backend/engineer/trajectory/files/:id': trajectory,
  'GET /backend/engineer/trajectory/files/:id/download': trajectory,
  'GET /backend/engineer/trajectory/files/:id/favorite': trajectory,
  'PUT /backend/engineer/trajectory/files/:id/favorite': { ...trajectory, body: () => ({ favorite: true }) },
  'DELETE /backend/engineer/trajectory/files/:id': trajectory,
  'GET /backend/engineer/trajectory/files/:id/shares': trajectory,
  'POST /backend/engineer/trajectory/share': { body: (w) => ({ file_id: w.trajectoryId }), owned: true },
  'DELETE /backend/engineer/trajectory/share/:token': { params: (w) => ({ token: w.trajectoryShareToken }), owned: true },
  'GET /backend/engineer/leaderboard': {},
  'GET /backend/engineer/trajectory/shared/:token': published((w) => ({ token: w.trajectoryShareToken })),
  'GET /backend/engineer/trajectory/shared/:token/download': published((w) => ({ token: w.trajectoryShareToken })),
  'POST /backend/auth/admin/users/:id/auditor': { ...aliceUser, body: () => ({ auditor: false }) },
  'GET /backend/auth/admin/audit-reads': {},
  'GET /backend/auth/admin/projections': {},
  // A read model that no other route of the matrix reads back, so its replay disturbs nothing else.
  'POST /backend/auth/admin/projections/:name/rebuild': { params: () => ({ name: PROJECTION }) },
  'POST /backend/auth/admin/projections/:name/verify': { params: () => ({ name: PROJECTION }) },
  'GET /backend/audit/search': { query: () => ({ user: 'alice', kind: 'conversation' }) },
  // Alice's conversation stream: auditors and administrators read anyone's, and each read is recorded.
  'GET /backend/audit/streams/:stream/events': { params: (w) => ({ stream: `conversation-${w.sessionId}` }) },
  'GET /backend/audit/streams/:stream/export.jsonl': { params: (w) => ({ stream: `conversation-${w.sessionId}` }) },
  'GET /backend/openapi.json': {},
  'GET /backend/docs': {},
  'GET /backend/docs/:asset': { params: () => ({ asset: 'init.js' }) },
  // AI-engineer sessions: every call names one of alice's sessions, except creating one and listing hers.
  'POST /backend/api/ai-engineer/sessions': { body: () => ({ title: 'matrix', task_description: 'matrix' }) },
  'GET /backend/api/ai-engineer/sessions': {},
  'GET /backend/api/ai-engineer/sessions/:id': engineer,
  'POST /backend/api/ai-engineer/sessions/:id/nodes': { ...engineer, body: (w: World) => ({ nodes: [{ id: w.engineerNodeId, node_type: 'message', timestamp: '2026-01-01T09:01:00.000Z', payload: { role: 'user', text: 'again' } }] }) },
  'GET /backend/api/ai-engineer/sessions/:id/nodes': engineer,
  'GET /backend/api/ai-engineer/sessions/:id/nodes/cursor': engineer,
  'GET /backend/api/ai-engineer/sessions/:id/nodes/stats': engineer,
  'GET /backend/api/ai-engineer/sessions/:id/nodes/:nodeId': { params: (w: World) => ({ id: w.engineerSessionId, nodeId: w.engineerNodeId }), owned: true },
  'GET /backend/api/ai-engineer/sessions/:id/tree': engineer,
  'POST /backend/api/ai-engineer/sessions/:id/commands': { ...engineer, body: () => ({ command_type: 'message', content: 'matrix' }) },
  'GET /backend/api/ai-engineer/sessions/:id/commands': engineer,
  'POST /backend/api/ai-engineer/sessions/:id/commands/:cmdId/result': { params: (w: World) => ({ id: w.engineerSessionId, cmdId: w.engineerCommandId }), owned: true, body: () => ({ status: 'completed', result: 'done' }) },
  'POST /backend/api/ai-engineer/sessions/:id/user-input': { ...engineer, body: () => ({ text: 'matrix' }) },
  'POST /backend/api/ai-engineer/executions/:id/stop': demo,
  // Starting one is alice's own call; the matrix runs it as her only, last, so no demo runs while others are checked.
  'POST /backend/api/ai-engineer/start-demo': { body: () => ({ task_description: 'matrix' }) },
  'GET /backend/api/ai-engineer/demo/executions/:id': demo,
  'GET /backend/api/ai-engineer/demo/executions/:id/nodes': demo,
  'GET /backend/api/ai-engineer/demo/executions/:id/actions': demo,
  'GET /backend/api/ai-engineer/demo/executions/:id/terminals': demo,
  'GET /backend/api/ai-engineer/demo/executions/:id/files': demo,
  'POST /backend/api/collab/docs': { body: () => ({ title: 'matrix' }) },
  'GET /backend/api/collab/docs': {},
  'GET /backend/api/collab/docs/:id': collabDoc,
  'POST /backend/api/collab/docs/:id/invites': { ...collabDoc, body: () => ({ role: 'read' }) },
  // The link is the capability: whoever holds it joins (that other document of alice's), as a reader.
  'POST /backend/api/collab/invites/accept': { body: (w: World) => ({ token: w.collabInviteToken }) },
  'GET /backend/api/collab/docs/:id/history': collabDoc,
  'GET /backend/api/collab/docs/:id/versions/:version': { params: (w: World) => ({ id: w.collabDocId, version: '0' }), owned: true },
  'PATCH /backend/api/collab/docs/:id': { ...collabDoc, body: () => ({ title: 'matrix renamed' }) },
  'GET /backend/api/collab/docs/:id/invites': collabDoc,
  'DELETE /backend/api/collab/docs/:id/invites/:inviteId': { params: (w: World) => ({ id: w.collabDocId, inviteId: w.collabInviteId }), owned: true },
  'GET /backend/api/collab/docs/:id/members': collabDoc,
  // Someone who never joined: the owner's removal is answered (204) and records nothing.
  'DELETE /backend/api/collab/docs/:id/members/:userId': { params: (w: World) => ({ id: w.collabDocId, userId: 'never-a-member' }), owned: true },
  // Not a member either: the owner is told 404 collab.member_not_found, which is hers to see.
  'PUT /backend/api/collab/docs/:id/members/:userId': { params: (w: World) => ({ id: w.collabDocId, userId: 'never-a-member' }), owned: true, mayBeMissing: true, body: () => ({ role: 'read' }) },
};

