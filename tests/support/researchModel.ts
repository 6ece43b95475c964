import { ANALYSE_PROMPT, PLAN_PROMPT, REFLECT_PROMPT } from '@scriptorium/workers/agents/deep_cognition/prompts';
import type { ChatBody } from './mockOpenAI.ts';

/**
 * A mock model's replies for a research run that skips clarifying: the question counts as specific,
 * the plan is the one `step`, a reflection finds it answered, any prompt named in `answers` gets its answer, and everything else (the
 * report's sections) is `prose`.
 */
export function straightResearch(step: { description: string; queries: string[] }, prose: string, answers: Record<string, string> = {}): (body: ChatBody) => string {
  return (body) => {
    const system = body.messages?.[0]?.content ?? '';
    if (system === ANALYSE_PROMPT) return JSON.stringify({ analysis: '问题已经具体', status: '开始研究', goal: '写报告', needs_clarification: false });
    if (system === PLAN_PROMPT) return JSON.stringify({ steps: [step] });
    if (system === REFLECT_PROMPT && !(system in answers)) return JSON.stringify({ answered: true, reason: '', follow_up_queries: [] });
    return answers[system] ?? prose;
  };
}
