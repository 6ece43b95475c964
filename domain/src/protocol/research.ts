/**
 * The research agents' building blocks (questions, plan steps, search results, canvas versions),
 * as schemas so the gateway and the client check what they receive. Names follow the spec (§3, §7).
 */
import { z } from 'zod';

export const PLAN_STEP_STATUSES = ['not_started', 'in_progress', 'completed'] as const;
export type PlanStepStatus = (typeof PLAN_STEP_STATUSES)[number];

/** single: pick one option; multiple: pick any; text: free text only. */
export const QUESTION_TYPES = ['single', 'multiple', 'text'] as const;

export const clarificationQuestionSchema = z.object({
  id: z.string(),
  question_content: z.string(),
  question_options: z.array(z.string()),
  question_type: z.enum(QUESTION_TYPES),
  section_id: z.string(),
});
export type ClarificationQuestion = z.infer<typeof clarificationQuestionSchema>;

/** Bounded: it is also what a client sends. */
export const clarificationAnswerSchema = z.object({
  id: z.string().min(1).max(100),
  question: z.string().max(2000).default(''),
  selectedOptions: z.array(z.string().max(500)).max(50).default([]),
  textInput: z.string().max(5000).default(''),
  question_type: z.enum(QUESTION_TYPES).default('text'),
});
export type ClarificationAnswer = z.output<typeof clarificationAnswerSchema>;

export const planStepSchema = z.object({ step: z.number().int(), description: z.string(), status: z.enum(PLAN_STEP_STATUSES) });
export type PlanStep = z.infer<typeof planStepSchema>;

export const webResultSchema = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  has_useful_info: z.boolean(),
  useful_info_summary: z.string(),
});
export type WebResult = z.infer<typeof webResultSchema>;

/**
 * What checking a citation found: `supported` (the cited source says it), `weak` (it shares the
 * claim's words but not plainly the claim), `unsupported` (it does not say it: the claim was
 * rewritten or stays marked in the text), `dangling` (no source has the number: it was removed).
 */
export const CITATION_VERDICTS = ['supported', 'weak', 'unsupported', 'dangling'] as const;
export type CitationVerdict = (typeof CITATION_VERDICTS)[number];
/** What was done about it: left as written, another source or a rewrite that holds, marked in the text, the number taken out. */
export const CITATION_ACTIONS = ['kept', 'repaired', 'marked', 'removed'] as const;

/** One citation of a version: `n` as cited, `offset` of its sentence in the version's content. */
export const citationCheckSchema = z.object({
  n: z.number().int().positive(),
  offset: z.number().int().nonnegative(),
  verdict: z.enum(CITATION_VERDICTS),
  action: z.enum(CITATION_ACTIONS),
  /** The passage of source n that bears most on the sentence (empty when there is no source n). */
  excerpt: z.string(),
  /** Figures and names of the sentence that source n does not have. */
  missing: z.array(z.string()).optional(),
});
export type CitationCheck = z.infer<typeof citationCheckSchema>;

export const canvasVersionSchema = z.object({
  version: z.number().int(),
  title: z.string(),
  content: z.string(),
  timestamp: z.string(),
  /** Every citation of a version the research agent wrote, checked against its source; absent on other versions. */
  citations: z.array(citationCheckSchema).optional(),
});
export type CanvasVersion = z.infer<typeof canvasVersionSchema>;

export const FEEDBACK_OPTIONS = ['continue', 'satisfied', 'manual_feedback'] as const;
export type FeedbackOption = (typeof FEEDBACK_OPTIONS)[number];

export const toolSourceSchema = z.object({ title: z.string(), url: z.string().optional(), tool: z.string() });
export type ToolSource = z.infer<typeof toolSourceSchema>;

/** The canvas editor's fixed id (spec §3). */
export const CANVAS_ID = 'dccanvas';

/** How long a research report is written: what the question needs, as its plan judged it. */
export const REPORT_LENGTHS = ['brief', 'standard', 'detailed'] as const;
export type ReportLength = (typeof REPORT_LENGTHS)[number];
