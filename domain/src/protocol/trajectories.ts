/** A CLI trajectory's events on the wire: what the command-line tool uploads and the client shows. */

export const TRAJECTORY_EVENT_TYPES = ['session_start', 'user_query', 'assistant_response', 'command', 'command_output', 'tool_call', 'tool_result', 'error', 'session_end'] as const;
export type TrajectoryEventType = (typeof TRAJECTORY_EVENT_TYPES)[number];

export interface TrajectoryEvent {
  event_type: TrajectoryEventType;
  timestamp: string;
  query?: string;
  content?: string;
  command?: string;
  exit_code?: number;
  model?: string;
  tokens?: number;
}

/** Who answered a command proposal: a person in the terminal or the browser, or nobody because the session ended first. */
export type RunAnswerer = 'terminal' | 'browser' | 'ended';
const ANSWERERS: Record<RunAnswerer, string> = { terminal: '终端', browser: '浏览器', ended: '会话结束' };
/** How the `tool_result` of an approved proposal begins. */
export const RUN_APPROVED = '已批准运行';

/** The note a trajectory's `tool_result` records for an answered proposal: Chinese, the file's own language. */
export function runNote(approved: boolean, by: RunAnswerer): string {
  return `${approved ? RUN_APPROVED : '已拒绝运行'}（${ANSWERERS[by]}）`;
}

/** The catalogue code of such a note, so a page can word it in its reader's language; undefined for any other text. */
export function runNoteCode(text: string): `engineer.run_approved_${Exclude<RunAnswerer, 'ended'>}` | `engineer.run_refused_${RunAnswerer}` | undefined {
  for (const by of Object.keys(ANSWERERS) as RunAnswerer[]) {
    if (text === runNote(false, by)) return `engineer.run_refused_${by}`;
    if (by !== 'ended' && text === runNote(true, by)) return `engineer.run_approved_${by}`;
  }
  return undefined;
}
