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
