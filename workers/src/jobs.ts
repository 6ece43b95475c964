import type { JobHandler } from '@scriptorium/infra/queue/port';

export const AGENT_QUEUE = 'agents';

/** Job name → handler; each agent registers itself here and validates its own job data. */
export const jobKinds = new Map<string, JobHandler<unknown>>();
