/** The server's demo agent: works on a task in a temporary, sandboxed workspace and records it as a session. */
export const DEMO_JOB = 'engineer_demo';

export interface DemoJobData {
  sessionId: string;
  ownerId: string;
  taskDescription: string;
}
