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

export const canvasVersionSchema = z.object({ version: z.number().int(), title: z.string(), content: z.string(), timestamp: z.string() });
export type CanvasVersion = z.infer<typeof canvasVersionSchema>;

export const FEEDBACK_OPTIONS = ['continue', 'satisfied', 'manual_feedback'] as const;
export type FeedbackOption = (typeof FEEDBACK_OPTIONS)[number];

export const toolSourceSchema = z.object({ title: z.string(), url: z.string().optional(), tool: z.string() });
export type ToolSource = z.infer<typeof toolSourceSchema>;

/** The canvas editor's fixed id (spec §3). */
export const CANVAS_ID = 'dccanvas';
