import { z } from 'zod';
import { AGENTS } from '../agents.ts';
import { wireContentSchema } from '../content.ts';
import { expiresDays } from './share.ts';
import { paging, queryNumber } from './query.ts';
import { canvasVersionSchema, clarificationAnswerSchema, clarificationQuestionSchema, FEEDBACK_OPTIONS } from '../research.ts';

/**
 * The research conversation's requests and replies (`/backend/conversation…`); see `oauth.ts` for how
 * they are shared. A request schema is the one the route parses with; the client sends its `z.input`.
 */

export const sessionCreated = z.object({ session_id: z.string() });

/** 0: the general chat agent; 1: the deep-cognition research agent. */
const collaborationMode = z.union([z.literal(0), z.literal(1)]);
export const LAYOUT_PRESETS = ['home-welcome', 'chat-interface-only'] as const;
/** waiting: the reply needs the user (clarification answers or feedback) before it goes on. */
const activity = z.enum(['idle', 'processing', 'paused', 'waiting']);

/** A session as the research endpoints describe it; `session_id` and `id` are the same. */
export const session = z.object({
  session_id: z.string(),
  id: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  /** The first question asked. */
  prompt: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  collaboration_mode: collaborationMode,
  search_enabled: z.boolean(),
  layout_preset: z.enum(LAYOUT_PRESETS),
  status: z.enum(['active', 'archived']),
  processing: z.boolean(),
  activity,
  message_count: z.number().int(),
});

/** A message the owner posted, and the reply that streams over the socket under `reply_id`. */
export const messagePosted = z.object({ session_id: z.string(), message_id: z.string(), reply_id: z.string(), agent: z.enum(AGENTS) }).meta({ description: 'The reply streams over the socket under reply_id' });

/** One message of a history, with every item of its stream. */
export const historyMessage = z.object({
  message_id: z.string(),
  role: z.enum(['user', 'assistant']),
  agent: z.string(),
  reply_to: z.string().nullable(),
  status: z.enum(['streaming', 'completed', 'interrupted', 'failed']),
  created_at: z.string(),
  updated_at: z.string(),
  contents: z.array(wireContentSchema),
});

/** A session's history, whole or a page of exchanges. */
export const history = z.object({
  /** Where this read stands in the log: the socket resumes after it. */
  position: z.number().int(),
  messages: z.array(historyMessage),
  /** Only when a page was asked for: the cursor of the exchanges before these, null at the start. */
  earlier: z.string().nullable().optional(),
});
export const sessionHistory = history.extend({ session_id: z.string() });

/** The canvas (spec §3): every saved version of the report, and which one is current (null: none yet). */
export const canvas = z.object({
  artifact_id: z.string(),
  versions: z.array(canvasVersionSchema.extend({ interrupted: z.boolean(), source: z.enum(['writing', 'targeted_edit', 'user_edit']) })),
  currentVersion: z.number().int().nullable(),
});

/** A page of the owner's sessions, newest first (the cloud history). */
export const myChats = z.object({
  chats: z.array(z.object({ id: z.string(), prompt: z.string().nullable(), title: z.string(), created_at: z.string(), message_count: z.number().int() })),
  total: z.number().int(),
  skip: z.number().int(),
  limit: z.number().int(),
});

export const pendingQuestions = z.object({ session_id: z.string(), questions: z.array(clarificationQuestionSchema) });

export const queryRefined = z.object({ query: z.string(), refined_query: z.string(), offline: z.boolean() }).meta({ description: 'The question as asked and as the model would put it (offline: only its spaces tidied)' });

/** What `…/dispatch` did, by its action. */
export const dispatched = z.discriminatedUnion('action', [
  z.object({ session_id: z.string(), action: z.literal('pause'), paused: z.boolean() }),
  z.object({ session_id: z.string(), action: z.literal('resume'), reply_id: z.string() }),
  z.object({ session_id: z.string(), action: z.literal('send'), message_id: z.string(), reply_id: z.string() }),
]);

/** The plan as it now stands: still waiting for review, or started. */
export const plan = z.object({ session_id: z.string(), status: z.enum(['waiting', 'started']), steps: z.array(z.object({ description: z.string(), queries: z.array(z.string()) })) });

export const researchBudget = z
  .object({ remaining_tokens: z.number().int(), estimate_tokens: z.number().int(), enough: z.boolean() })
  .meta({ description: "Today's budget left beside what a research run is reckoned to use (RESEARCH_TOKENS_ESTIMATE): below it, a client asks before starting" });

export const planReview = z.object({ review_plans: z.boolean() }).meta({ description: 'Whether research plans wait to be started (true) or start after a short countdown (false, the default)' });

export const researchStatus = z.object({
  session_id: z.string(),
  status: z.enum(['idle', 'processing', 'paused', 'waiting']),
  processing: z.boolean(),
  /** The reply under way, if any: what to resume or pause. */
  active_reply: z.object({ message_id: z.string(), agent: z.string(), job_id: z.string() }).nullable(),
});

/** `paused: false` when nothing was running. */
export const researchPaused = z.object({ session_id: z.string(), paused: z.boolean() });
export const researchResumed = z.object({ session_id: z.string(), reply_id: z.string() });

export const availableModels = z.object({
  models: z.array(z.object({ id: z.string(), name: z.string(), offline: z.boolean(), default: z.boolean() })),
  current: z.string(),
  offline: z.boolean(),
});
export const modelPreference = z.object({ model: z.string() });

export const editRequested = z.object({ session_id: z.string(), request_id: z.string(), from_version: z.number().int(), status: z.literal('submitted') });
export const reportFeedbackSaved = z.object({ success: z.literal(true) });

/** Speech recognition (`/conversation/api/v2/asr/…`): whether it is configured, and what a recording said. */
export const speechStatus = z.object({ configured: z.boolean() });
export const speechText = z.object({ success: z.literal(true), text: z.string() });
/** The recording's text, sent as the session's next question. */
export const speechQuestion = speechText.extend({ session_id: z.string(), message_id: z.string(), reply_id: z.string() });

export type SpeechStatus = z.infer<typeof speechStatus>;
export type SpeechText = z.infer<typeof speechText>;
export type SpeechQuestion = z.infer<typeof speechQuestion>;
export type SessionCreated = z.infer<typeof sessionCreated>;
export type Session = z.infer<typeof session>;
export type CollaborationMode = Session['collaboration_mode'];
export type LayoutPreset = Session['layout_preset'];
export type MessagePosted = z.infer<typeof messagePosted>;
export type HistoryMessage = z.infer<typeof historyMessage>;
export type History = z.infer<typeof history>;
export type SessionHistory = z.infer<typeof sessionHistory>;
export type Canvas = z.infer<typeof canvas>;
export type MyChats = z.infer<typeof myChats>;
export type CloudChat = MyChats['chats'][number];
export type PendingQuestions = z.infer<typeof pendingQuestions>;
export type QueryRefined = z.infer<typeof queryRefined>;
export type Dispatched = z.infer<typeof dispatched>;
export type Plan = z.infer<typeof plan>;
export type ResearchBudget = z.infer<typeof researchBudget>;
export type PlanReview = z.infer<typeof planReview>;
export type ResearchStatus = z.infer<typeof researchStatus>;
export type ResearchPaused = z.infer<typeof researchPaused>;
export type ResearchResumed = z.infer<typeof researchResumed>;
export type AvailableModels = z.infer<typeof availableModels>;
export type ModelPreference = z.infer<typeof modelPreference>;
export type EditRequested = z.infer<typeof editRequested>;
export type ReportFeedbackSaved = z.infer<typeof reportFeedbackSaved>;

/** Share links of a conversation and of one artifact (`/conversation/sessions/share`, `/conversation/artifacts/share`). */
export const conversationShared = z.object({ share_id: z.string(), path: z.string(), include_private: z.boolean() });
export const conversationShareRevoked = z.object({ share_id: z.string(), revoked: z.literal(true) });
export const artifactShared = z.object({ share_id: z.string(), path: z.string() });
/**
 * A shared conversation as anyone with the link reads it: the session, its history (whole or a
 * page), the report. Unless the owner chose otherwise, the owner's private material is left out.
 */
export const sharedConversation = z.object({
  share_id: z.string(),
  title: z.string(),
  description: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  session,
  ...history.shape,
  canvas: canvas.nullable(),
  private_material_hidden: z.boolean(),
});

/** A session's links (its conversation and its files), newest first, revoked and expired ones too. */
export const sessionShares = z.object({
  session_id: z.string(),
  shares: z.array(
    z.object({
      share_id: z.string(),
      kind: z.enum(['conversation', 'artifact']),
      title: z.string(),
      description: z.string(),
      filename: z.string().nullable(),
      /** `/share/{kind}/{share_id}` */
      path: z.string(),
      created_at: z.string(),
      expires_at: z.string().nullable(),
      revoked: z.boolean(),
      open: z.boolean().meta({ description: 'Neither revoked nor expired' }),
      include_private: z.boolean().meta({ description: 'A conversation link that shows the private notes and cognitions the research found' }),
    }),
  ),
});

export const sharedArtifact = z.object({ share_id: z.string(), filename: z.string(), filetype: z.enum(['html', 'markdown']), content: z.string(), created_at: z.string(), expires_at: z.string().nullable() });

export type ConversationShared = z.infer<typeof conversationShared>;
export type ConversationShareRevoked = z.infer<typeof conversationShareRevoked>;
export type ArtifactShared = z.infer<typeof artifactShared>;
export type SharedArtifact = z.infer<typeof sharedArtifact>;
export type SharedConversation = z.infer<typeof sharedConversation>;
export type SessionShares = z.infer<typeof sessionShares>;
export type SessionShare = SessionShares['shares'][number];

/** Requests. */

export const sessionId = z.uuid('conversation.id_invalid');
export const clientId = z.string().trim().regex(/^[A-Za-z0-9_-]{1,100}$/, 'conversation.client_id_invalid');
export const mode = z.union([z.literal(0), z.literal(1)], { error: 'conversation.mode_invalid' });
export const feedbackOption = z.enum(FEEDBACK_OPTIONS, { error: 'conversation.feedback_option_invalid' });
export const message = z.string({ error: 'conversation.message_required' }).trim().min(1, 'conversation.message_empty').max(20_000, 'conversation.message_too_long');
export const createSessionBody = z.object({
  client_id: clientId.optional(),
  name: z.string().trim().max(100).optional(),
  mode: mode.optional(),
  search_enabled: z.boolean().optional(),
  layout_preset: z.enum(LAYOUT_PRESETS).optional(),
});
export const chatSendBody = z.object({ session_id: sessionId, message, client_id: clientId.optional() });
export const searchStatusBody = z.object({ session_id: sessionId, search_enabled: z.boolean().optional(), enabled: z.boolean().optional() }).refine((value) => (value.search_enabled ?? value.enabled) !== undefined, {
  message: 'conversation.search_enabled_required',
  path: ['search_enabled'],
});
export const setModeBody = z.object({ session_id: sessionId, mode });
export const sessionTitleBody = z.object({ title: z.string({ error: 'conversation.title_required' }).trim().min(1, 'conversation.title_empty').max(200, 'conversation.title_too_long') });
export const sessionNameBody = z.object({ name: z.string({ error: 'conversation.name_required' }).trim().min(1, 'conversation.name_empty').max(100, 'conversation.name_too_long') });
export const planReviewBody = z.object({ review_plans: z.boolean({ error: 'preferences.review_plans_required' }) });
export const clarificationAnswerBody = z.object({ answers: z.array(clarificationAnswerSchema).min(1, 'conversation.answers_empty').max(50) });
/** A plan step as the user edits it while the plan waits for review. */
export const planStepEdit = z.object({
  description: z.string({ error: 'conversation.plan_step_required' }).max(500, 'conversation.plan_step_too_long'),
  queries: z.array(z.string().trim().max(200, 'conversation.plan_query_too_long')).max(5, 'conversation.plan_too_many_queries').optional(),
});
export const planEditBody = z.object({ steps: z.array(planStepEdit, { error: 'conversation.plan_steps_required' }).max(12, 'conversation.plan_too_many_steps') });
export const editRequestBody = z.object({
  request_id: z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, 'conversation.edit_request_id_invalid').optional(),
  text: z.string({ error: 'conversation.edit_text_required' }).trim().min(1, 'conversation.edit_text_empty').max(2000),
  snippet: z.string({ error: 'conversation.edit_snippet_required' }).min(1, 'conversation.edit_snippet_empty').max(20_000).refine((value) => value.trim().length > 0, 'conversation.edit_snippet_empty'),
  // Where the selection is, so equal text elsewhere in the report is left alone.
  offset: z.number().int().min(0).optional(),
  version: z.number().int().min(1).optional(),
});
/** A hand edit of the report, saved as the version after `from_version`. */
export const canvasEditBody = z.object({
  content: z.string({ error: 'conversation.report_required' }).max(500_000, 'conversation.report_too_long'),
  title: z.string().trim().max(200).optional(),
  from_version: z.number({ error: 'conversation.from_version_required' }).int().min(1),
});
/** `{option, text}`, or the spec's `{feedback}`: an option's name or the user's own words. */
export const researchFeedbackBody = z.union([
  z.object({ option: feedbackOption, text: z.string().max(5000).optional() }),
  z.object({ feedback: z.union([feedbackOption, z.string().trim().min(1, 'conversation.feedback_empty').max(5000)]) }),
]);

export type CreateSessionBody = z.input<typeof createSessionBody>;
export type ChatSendBody = z.input<typeof chatSendBody>;
export type SearchStatusBody = z.input<typeof searchStatusBody>;
export type SetModeBody = z.input<typeof setModeBody>;
export type SessionTitleBody = z.input<typeof sessionTitleBody>;
export type SessionNameBody = z.input<typeof sessionNameBody>;
export type PlanReviewBody = z.input<typeof planReviewBody>;
export type ClarificationAnswerBody = z.input<typeof clarificationAnswerBody>;
export type PlanEditBody = z.input<typeof planEditBody>;
export type EditRequestBody = z.input<typeof editRequestBody>;
export type CanvasEditBody = z.input<typeof canvasEditBody>;
export type ResearchFeedbackBody = z.input<typeof researchFeedbackBody>;

export const conversationShareBody = z.object({
  session_id: sessionId,
  title: z.string().trim().max(200, 'share.title_too_long').default(''),
  description: z.string().trim().max(2000, 'share.description_too_long').default(''),
  expires_days: expiresDays,
  /** Show the owner's private notes and cognitions found while researching; by default only what the report cites. */
  include_private: z.boolean({ error: 'share.include_private_invalid' }).default(false),
});
export const artifactShareBody = z.object({
  session_id: sessionId,
  message_id: z.string().min(1).max(100),
  filename: z.string().min(1).max(300),
  expires_days: expiresDays,
});
export type ConversationShareBody = z.input<typeof conversationShareBody>;
export type ArtifactShareBody = z.input<typeof artifactShareBody>;

export const dispatchBody = z.object({
  agent: z.enum(AGENTS, { error: 'conversation.agent_invalid' }),
  action: z.enum(['pause', 'resume', 'send'], { error: 'conversation.action_invalid' }),
  params: z.object({ client_id: clientId.optional(), text: z.string().optional() }).passthrough().default({}),
  run_async: z.boolean().default(true),
});
export type DispatchBody = z.input<typeof dispatchBody>;

/** The most exchanges one page of a history may ask for. */
export const HISTORY_PAGE_MAX = 100;

/**
 * `limit` exchanges before `before` (the cursor a previous page answered as `earlier`), for a session's
 * history and a shared conversation's. Without either the history is answered whole, as the spec has it.
 */
export const historyPageQuery = z.object({
  limit: queryNumber({ error: 'paging.limit_integer' }).int('paging.limit_integer').min(1, 'paging.limit_too_small').max(HISTORY_PAGE_MAX, 'paging.limit_too_large').optional(),
  before: z.string().max(200).optional().meta({ description: 'The `earlier` cursor of the page after the wanted one; opaque' }),
});
export type HistoryPageQuery = z.input<typeof historyPageQuery>;

/** A page of the user's chats (GET /conversation/api/chats/my). */
export const chatsMyQuery = paging(20, 100);
export type ChatsMyQuery = z.input<typeof chatsMyQuery>;

/** Which version of a shared report the PDF shows; left out, the newest. */
export const sharePdfQuery = z.object({ version: queryNumber().int().min(1).optional() });
export type SharePdfQuery = z.input<typeof sharePdfQuery>;

/** Markdown to be set as a PDF (POST /api/markdown-to-pdf): the canvas's report as the reader sees it. */
export const markdownPdfBody = z.object({
  markdown_content: z.string({ error: 'exports.markdown_required' }).refine((text) => text.trim().length > 0, 'exports.markdown_empty'),
  filename: z.string().max(300).optional(),
});
export type MarkdownPdfBody = z.input<typeof markdownPdfBody>;
