import type { JobHandler } from '@scriptorium/infra/queue/port';
import type { AgentDeps } from './deps.ts';
import { runPoeLlm } from './poe_llm/agent.ts';

/** Job name (the agent) → handler. */
export function agentHandlers(deps: AgentDeps): Map<string, JobHandler<unknown>> {
  return new Map<string, JobHandler<unknown>>([['poe_llm', (job) => runPoeLlm(deps, job)]]);
}
