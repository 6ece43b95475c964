/** The server's demo agent: works on a task in a temporary, sandboxed workspace and records it as a session. */
export const DEMO_JOB = 'engineer_demo';

export interface DemoJobData {
  sessionId: string;
  ownerId: string;
  taskDescription: string;
}

/**
 * Fairness in the long lane: a user has at most `DEMOS_PER_USER` demos not yet ended (running or
 * waiting), and the lane has twice as many slots per worker, so one user never holds every slot and
 * a second user's demo starts beside theirs.
 */
export const DEMOS_PER_USER = 2;
export const LONG_LANE_SLOTS = 2 * DEMOS_PER_USER;
