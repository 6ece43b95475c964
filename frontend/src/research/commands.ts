import type { ClarificationAnswer, FeedbackOption } from '@scriptorium/domain/protocol/research';
import type { ClientEnvelope, WireAgent } from '@scriptorium/domain/protocol/ws';

/** Where a targeted edit's selection sits: its offset in the version's Markdown, and that version. */
export interface EditTarget {
  offset: number;
  version: number;
}

export interface EditRequest extends EditTarget {
  request_id: string;
  text: string;
  snippet: string;
}

/** What a session sends to its agents: over the socket when it is up, else by HTTP (spec §7). */
export type SessionCommand =
  | { kind: 'user_input'; agent: WireAgent; content: string }
  | { kind: 'pause'; agent: WireAgent }
  /** Continues the reply a pause or a failure cut short, from where it stands. */
  | { kind: 'resume'; agent: WireAgent }
  | { kind: 'clarification_answer'; answers: ClarificationAnswer[] }
  | { kind: 'feedback_response'; option: FeedbackOption; text?: string }
  | { kind: 'targeted_edit'; request: EditRequest };

/** The socket envelope of a command, minus the session id. */
export function wireOf(command: SessionCommand): { agent: WireAgent; payload: ClientEnvelope['payload'] } {
  switch (command.kind) {
    case 'user_input':
      return { agent: command.agent, payload: { content_type: 'user_input', content: command.content } };
    case 'pause':
      return { agent: command.agent, payload: { content_type: 'pause' } };
    case 'resume':
      return { agent: command.agent, payload: { content_type: 'resume' } };
    case 'clarification_answer':
      return { agent: 'deep_cognition', payload: { content_type: 'clarification_answer', answers: command.answers } };
    case 'feedback_response':
      return { agent: 'deep_cognition', payload: { content_type: 'feedback_response', option: command.option, ...(command.text !== undefined && { text: command.text }) } };
    case 'targeted_edit':
      return { agent: 'targeted_edit', payload: { content_type: 'targeted_edit', ...command.request } };
  }
}

export interface Transport {
  /** Throws when the socket is not connected. */
  socket(sessionId: string, agent: WireAgent, payload: ClientEnvelope['payload']): void;
  http(sessionId: string, command: SessionCommand): Promise<unknown>;
}

/** "Try the socket, else HTTP", the one place it is written. */
export async function deliver(transport: Transport, sessionId: string, command: SessionCommand): Promise<void> {
  const { agent, payload } = wireOf(command);
  try {
    transport.socket(sessionId, agent, payload);
  } catch {
    await transport.http(sessionId, command);
  }
}
