import { ANALYSE_PROMPT, PLAN_PROMPT, REFLECT_PROMPT } from '@scriptorium/workers/agents/deep_cognition/prompts';
import type { ChatBody } from './mockOpenAI.ts';

/**
 * A mock model's replies for a research run that skips clarifying: the question counts as specific,
 * the plan is `plan`, a reflection finds each step answered, any prompt named in `answers` gets its
 * answer, and everything else (the report's sections) is `prose`.
 */
export function plannedResearch(plan: { title?: string; steps: Array<{ description: string; queries: string[]; heading?: string }> }, prose: string, answers: Record<string, string> = {}): (body: ChatBody) => string {
  return (body) => {
    const system = body.messages?.[0]?.content ?? '';
    if (system === ANALYSE_PROMPT) return JSON.stringify({ analysis: '问题已经具体', status: '开始研究', goal: '写报告', needs_clarification: false });
    if (system === PLAN_PROMPT) return JSON.stringify(plan);
    if (system === REFLECT_PROMPT && !(system in answers)) return JSON.stringify({ answered: true, reason: '', follow_up_queries: [] });
    return answers[system] ?? prose;
  };
}

/** `plannedResearch` with a plan of the one `step`. */
export const straightResearch = (step: { description: string; queries: string[] }, prose: string, answers: Record<string, string> = {}) => plannedResearch({ steps: [step] }, prose, answers);

/** A three-step plan on solid-state batteries, for the suites that watch a plan's steps move. */
export const SOLID_STATE_PLAN = {
  title: '固态电池研究',
  steps: [
    { description: '梳理固态电池的技术路线', heading: '技术路线', queries: ['固态电池 技术路线 硫化物'] },
    { description: '比较各路线的安全性', heading: '安全性', queries: ['固态电池 安全性'] },
    { description: '评估产业化进展', heading: '产业化', queries: ['固态电池 产业化 量产'] },
  ],
};

/** Whether a model call writes the report: the section, summary, deepen and revise prompts (workers' prompts.ts) open with these words. */
export const writesReport = (body: ChatBody) => body.messages?.[0]?.content.startsWith('你是严谨的研究报告撰写者') ?? false;
