import { COGNITION_JOB } from '@scriptorium/domain/cognition/extractionDecide';
import type { JobHandler } from '@scriptorium/infra/queue/port';
import type { AgentDeps } from './deps.ts';
import { runCognitionExtraction } from './cognition_extract/agent.ts';
import { runDeepCognition } from './deep_cognition/agent.ts';
import { runDirectWriting } from './direct_writing_agent/agent.ts';
import { runPoeLlm } from './poe_llm/agent.ts';
import { runTargetedEdit } from './targeted_edit/agent.ts';
import { runEngineerDemo } from './engineer_demo/agent.ts';
import { DEMO_JOB } from '@scriptorium/domain/engineer/demo';
import { DECK_REVIEW_JOB } from '@scriptorium/domain/deckreview/decide';
import { runDeckReview } from './deck_review/agent.ts';

/** Job name (the agent) → handler. */
export function agentHandlers(deps: AgentDeps): Map<string, JobHandler<unknown>> {
  return new Map<string, JobHandler<unknown>>([
    ['poe_llm', (job) => runPoeLlm(deps, job)],
    ['deep_cognition', (job) => runDeepCognition(deps, job)],
    ['targeted_edit', (job) => runTargetedEdit(deps, job)],
    ['direct_writing_agent', (job) => runDirectWriting(deps, job)],
    [COGNITION_JOB, (job) => runCognitionExtraction(deps, job)],
    [DEMO_JOB, (job) => runEngineerDemo(deps, job)],
    [DECK_REVIEW_JOB, (job) => runDeckReview(deps, job)],
  ]);
}
