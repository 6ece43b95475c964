/** What the writing form checks before anything is created on the server. */

export const MIN_BRIEF = 10;
export const MAX_BRIEF = 4000;
/** A session holds at most 20 contexts (the server's limit); notes and files share them. */
export const MAX_MATERIAL = 20;
export const FILE_TYPES = ['txt', 'md', 'pdf', 'docx', 'html'] as const;
export type UploadType = (typeof FILE_TYPES)[number];

export type BriefProblem = { kind: 'tooShort'; min: number } | { kind: 'tooLong'; max: number } | { kind: 'tooMany'; max: number };

export function checkBrief(brief: string, material: number): BriefProblem | null {
  const length = Array.from(brief.trim()).length;
  if (length < MIN_BRIEF) return { kind: 'tooShort', min: MIN_BRIEF };
  if (length > MAX_BRIEF) return { kind: 'tooLong', max: MAX_BRIEF };
  if (material > MAX_MATERIAL) return { kind: 'tooMany', max: MAX_MATERIAL };
  return null;
}

/** The session's name: the brief's first line, short enough for the sidebar. */
export function sessionName(brief: string): string {
  const first = brief.trim().split(/\r?\n/)[0]!.trim();
  const chars = Array.from(first);
  return chars.length > 24 ? `${chars.slice(0, 23).join('')}…` : first;
}

/** The upload type of a file by its extension; null for what the server does not read. */
export function uploadTypeOf(filename: string): UploadType | null {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  if (extension === 'htm') return 'html';
  if (extension === 'markdown') return 'md';
  return (FILE_TYPES as readonly string[]).includes(extension ?? '') ? (extension as UploadType) : null;
}
