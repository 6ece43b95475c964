import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { EngineerSocketMessage } from '../protocol/engineer.ts';
import type { EngineerEvent } from './session.ts';

/** What a session's socket shows of one of its events; the log position lets a client resume after it. */
export function toEngineerWire(recorded: RecordedEvent): EngineerSocketMessage | null {
  const event = { type: recorded.type, data: recorded.data } as EngineerEvent;
  const { sessionId: session_id, at } = event.data;
  const position = recorded.position;
  switch (event.type) {
    case 'EngineerSessionCreated':
      return null;
    case 'EngineerNodesAppended':
    case 'EngineerNodesUpdated':
      return { type: 'nodes', session_id, position, nodes: event.data.nodes };
    case 'EngineerStatusChanged':
      return { type: 'status', session_id, position, status: event.data.status };
    case 'EngineerCommandIssued': {
      const { commandId: id, seq, commandType: command_type, content, clientId: client_id } = event.data;
      return { type: 'command', session_id, position, command: { id, seq, command_type, content, client_id, created_at: at } };
    }
    case 'EngineerCommandDelivered':
      return { type: 'command_delivered', session_id, position, command_id: event.data.commandId, client_id: event.data.clientId };
    case 'EngineerCommandResultRecorded': {
      const { commandId: command_id, status, result, errorMessage: error_message } = event.data;
      return { type: 'command_result', session_id, position, command_id, result: { status, result, error_message, recorded_at: at } };
    }
    default:
      return assertNever(event);
  }
}
