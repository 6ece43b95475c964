/**
 * Payloads of the research agents' content types (the fields beside `content_type` in a
 * `WireContent`), shared with the client. Names follow the spec (§3, §7).
 */

export type PlanStepStatus = 'not_started' | 'in_progress' | 'completed';

export interface ClarificationQuestion {
  id: string;
  question_content: string;
  question_options: string[];
  /** single: pick one option; multiple: pick any; text: free text only. */
  question_type: 'single' | 'multiple' | 'text';
  section_id: string;
}

export interface ClarificationAnswer {
  id: string;
  question: string;
  selectedOptions: string[];
  textInput: string;
  question_type: ClarificationQuestion['question_type'];
}

export interface PlanStep {
  step: number;
  description: string;
  status: PlanStepStatus;
}

export interface WebResult {
  title: string;
  url: string;
  snippet: string;
  has_useful_info: boolean;
  useful_info_summary: string;
}

export interface CanvasVersion {
  version: number;
  title: string;
  content: string;
  timestamp: string;
}

/** Fields per content type. Text-streaming types carry `content` (a chunk) only. */
export interface ResearchPayloads {
  think: { content: string };
  think_end: Record<string, never>;
  clarification: { questions: ClarificationQuestion[]; status: 'undone' | 'done' };
  status_and_goal: { status: string; goal: string };
  content: { content: string };
  plan: { research_plan: PlanStep[]; message: 'Plan Generated' };
  mark_in_progress_plan_step: { index: number; research_plan: PlanStep[] };
  web_search_queries: { queries: string[] };
  web_search_results: { results: WebResult[]; message: string };
  platform_tools_start: { tools: string[] };
  platform_tools_results: {
    tool_count: number;
    tools: string[];
    total_results: number;
    results_by_tool: Record<string, unknown>;
    sources: Array<{ title: string; url?: string; tool: string }>;
    sources_status: Record<string, 'ok' | 'error'>;
  };
  platform_tools_end: { message: 'Platform Tools Execution Completed' };
  web_browsing_start: { urls: string[]; message: 'Browsing Webpages .....' };
  web_browsing_in_progress: { url: string; title?: string; index: number; total: number };
  web_browsing_result: { url: string; title: string; ok: boolean; summary?: string; error?: string };
  web_browsing_llm_end: { message: 'Browsing Webpages Finished' };
  web_scraping_start: { urls: string[]; message: 'Scraping Webpages .....' };
  web_scraping_end: { count: number; message: string };
  edit_report: { title: string; artifact_id: string; version: number; content: Array<{ id: string; content: string; destination: string }> };
  writing_start: { artifact_id: string; version: number; title: string; message: string };
  writing_content: { artifact_id: string; version: number; content: string };
  writing_end: { artifact_id: string; version: number; interrupted: boolean; saved: boolean; message: string };
  feedback_request: { options: Array<'continue' | 'satisfied' | 'manual_feedback'>; artifact_id: string; version: number };
  cognition_recommendation: { items: Array<{ id: string; title: string; summary: string }> };
  targeted_edit_result: { request_id: string; original_snippet: string; edited_snippet: string; full_content: string; artifact_id: string; version: number };
  error: { error_message: string; status?: number };
  info: { content: string; level?: 'info' | 'warning' };
}

/** The canvas editor's fixed id (spec §3). */
export const CANVAS_ID = 'dccanvas';
