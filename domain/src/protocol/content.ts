/**
 * One item of a session's stream: every `content_type` the spec lists (§7: the research agent's 27,
 * general chat's, targeted edits') plus the conversation's own (user input, message start/end,
 * canvas saves). Workers append them, the gateway and the history send them, the client parses them.
 */
import { z } from 'zod';
import { AGENTS } from './agents.ts';
import { progressSchema } from './progress.ts';
import {
  citationCheckSchema,
  clarificationAnswerSchema,
  clarificationQuestionSchema,
  FEEDBACK_OPTIONS,
  planStepSchema,
  toolSourceSchema,
  webResultSchema,
} from './research.ts';

export const agentSchema = z.enum(AGENTS);

const envelope = {
  agent: z.enum([...AGENTS, 'user']),
  message_id: z.string(),
  timestamp: z.string(),
  updated_at: z.string(),
  /** The item's place within its reply; items the conversation itself records have none. */
  seq: z.number().int().optional(),
};

const item = <T extends string, S extends z.ZodRawShape>(contentType: T, shape: S) => z.object({ ...envelope, content_type: z.literal(contentType), ...shape });

const text = { content: z.string() };
const urls = { urls: z.array(z.string()), message: z.string() };
const message = { message: z.string() };
const artifact = { artifact_id: z.string(), version: z.number().int() };
const file = { filename: z.string(), artifact_type: z.string(), filetype: z.enum(['html', 'markdown']) };

export const contentSchemas = [
  // The conversation.
  item('user_input', { ...text, target_agent: agentSchema, client_id: z.string().optional() }),
  item('message_start', { reply_to: z.string(), continues: z.string().optional() }),
  item('message_end', { outcome: z.enum(['completed', 'interrupted', 'failed']), error_message: z.string().optional() }),
  /** paused also means "waiting for you". */
  item('status', { status: z.enum(['processing', 'paused']) }),
  item('canvas_saved', { ...artifact, title: z.string(), content: z.string() }),
  // General chat (poe_llm).
  item('chat_chunk', text),
  item('artifact_start', { ...file, status: z.literal('in_progress').optional() }),
  item('artifact_complete', { ...file, content: z.string(), status: z.literal('completed').optional() }),
  // Research (deep_cognition) and the writing agents.
  item('think', text),
  item('think_end', {}),
  item('clarification', { questions: z.array(clarificationQuestionSchema), status: z.literal('undone') }),
  item('clarification_answer', { answers: z.array(clarificationAnswerSchema), status: z.literal('done') }),
  item('status_and_goal', { status: z.string(), goal: z.string() }),
  item('content', text),
  item('plan', { research_plan: z.array(planStepSchema), ...message }),
  /**
   * The plan waiting to be researched (`waiting`, with `starts_at` while a countdown runs), edited by
   * the user (its new steps and their searches; the countdown stops), or started (`by` whom).
   */
  item('plan_review', {
    status: z.enum(['waiting', 'edited', 'started']),
    starts_at: z.string().optional(),
    research_plan: z.array(planStepSchema).optional(),
    queries: z.array(z.array(z.string())).optional(),
    by: z.enum(['user', 'countdown']).optional(),
  }),
  item('mark_in_progress_plan_step', { index: z.number().int(), research_plan: z.array(planStepSchema) }),
  item('web_search_queries', { queries: z.array(z.string()) }),
  item('web_search_results', { results: z.array(webResultSchema), queries: z.array(z.string()).optional(), ...message }),
  item('platform_tools_start', { tools: z.array(z.string()) }),
  item('platform_tools_results', {
    tool_count: z.number().int(),
    tools: z.array(z.string()),
    total_results: z.number().int(),
    results_by_tool: z.record(z.string(), z.unknown()),
    sources: z.array(toolSourceSchema),
    sources_status: z.record(z.string(), z.enum(['ok', 'error'])),
  }),
  item('platform_tools_end', message),
  item('web_browsing_start', urls),
  item('web_browsing_in_progress', { url: z.string(), title: z.string().optional(), index: z.number().int(), total: z.number().int() }),
  item('web_browsing_result', { url: z.string(), title: z.string(), ok: z.boolean(), summary: z.string().optional(), error: z.string().optional() }),
  item('web_browsing_llm_end', message),
  item('web_scraping_start', urls),
  item('web_scraping_end', { count: z.number().int(), ...message }),
  item('edit_report', { ...artifact, title: z.string(), content: z.array(z.object({ id: z.string(), content: z.string(), destination: z.string() })) }),
  item('writing_start', { ...artifact, title: z.string(), ...message }),
  item('writing_content', { ...text, artifact_id: z.string() }),
  /** The version being written goes back to its first `length` characters (a section cut mid-stream, written again). */
  item('writing_rollback', { artifact_id: z.string(), length: z.number().int().nonnegative() }),
  item('writing_end', { ...artifact, title: z.string().optional(), interrupted: z.boolean(), saved: z.boolean(), ...message, level: z.literal('warning').optional(), citations: z.array(citationCheckSchema).optional() }),
  item('feedback_request', { ...artifact, options: z.array(z.enum(FEEDBACK_OPTIONS)) }),
  item('feedback_response', { option: z.enum(FEEDBACK_OPTIONS), text: z.string().optional() }),
  item('cognition_recommendation', { items: z.array(z.object({ id: z.string(), title: z.string(), summary: z.string() })) }),
  /** `progress` says what it is for the client to word; `content` is the text beside it (all older entries have). */
  item('info', { ...text, level: z.enum(['info', 'warning']).optional(), progress: progressSchema.optional() }),
  /** `request_id` when a targeted edit was refused; `status` 402 when the budget ran out. */
  // `code` and `params` name the refusal in the error catalogue, so a client words it in its language.
  item('error', {
    error_message: z.string(),
    code: z.string().optional(),
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    status: z.number().int().optional(),
    request_id: z.string().optional(),
  }),
  // Targeted edits.
  item('targeted_edit_result', { ...artifact, request_id: z.string(), original_snippet: z.string(), edited_snippet: z.string(), full_content: z.string(), citations: z.array(citationCheckSchema).optional() }),
] as const;

/** Named, so the OpenAPI document describes it once for every reply that carries stream items. */
export const wireContentSchema = z.discriminatedUnion('content_type', contentSchemas).meta({ id: 'WireContent', description: "One item of a session's stream" });
export type WireContent = z.infer<typeof wireContentSchema>;
export type ContentType = WireContent['content_type'];
export type ContentOf<T extends ContentType> = Extract<WireContent, { content_type: T }>;
export const CONTENT_TYPES = contentSchemas.map((schema) => schema.shape.content_type.value) as ContentType[];

/** The fields an agent gives for an item; the conversation adds the envelope. */
export type PayloadOf<T extends ContentType> = Omit<ContentOf<T>, keyof typeof envelope | 'content_type'>;

export { CHUNKED_TYPES, isChunk, type ChunkedType } from './chunks.ts';

/** Items agents record as they are (`AgentOutputRecorded`); the rest have events of their own. */
export const OUTPUT_TYPES = [
  'think_end',
  'status_and_goal',
  'web_search_queries',
  'platform_tools_start',
  'platform_tools_results',
  'platform_tools_end',
  'web_browsing_start',
  'web_browsing_in_progress',
  'web_browsing_result',
  'web_browsing_llm_end',
  'web_scraping_start',
  'web_scraping_end',
  'edit_report',
  'writing_rollback',
  'cognition_recommendation',
  'artifact_start',
  'artifact_complete',
  'info',
  'error',
] as const satisfies readonly ContentType[];
export type OutputType = (typeof OUTPUT_TYPES)[number];
