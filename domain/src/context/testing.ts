import type { ContextFileAdded } from './context.ts';

type FileData = Omit<ContextFileAdded['data'], 'at'>;

/**
 * A PDF uploaded as a context of session s1 of user u1, as the decider's and the projection's tests
 * add it; `at` is the event's, so a command can carry the same data.
 */
export const contextFile = (contextId: string, overrides: Partial<FileData> = {}): FileData => ({
  sessionId: 's1',
  userId: 'u1',
  contextId,
  filename: '报告.pdf',
  fileType: 'pdf',
  size: 1234,
  sha256: `sha-${contextId}`,
  blobKey: `contexts/u1/${contextId}.original`,
  textKey: `contexts/u1/${contextId}.txt`,
  chars: 99,
  truncated: false,
  ...overrides,
});
