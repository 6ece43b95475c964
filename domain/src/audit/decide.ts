import type { Command, Decider } from '@scriptorium/infra/eventsourcing/decider';
import { evolve, initialState, type AuditAction, type AuditEvent, type AuditLog } from './audit.ts';

export type RecordAuditRead = Command<'RecordAuditRead', { auditorId: string; streamId: string; action: AuditAction; after?: number; count?: number }>;
export type AuditCommand = RecordAuditRead;

/** The route has checked the reader may audit; the log only has to say that they did. */
export const recordAuditRead = (command: RecordAuditRead): AuditEvent[] => [{ type: 'StreamAudited', data: { ...command.data, at: command.metadata.now.toISOString() } }];

export const decide = (command: AuditCommand, _state: AuditLog): AuditEvent[] => recordAuditRead(command);

export const auditDecider: Decider<AuditLog, AuditCommand, AuditEvent> = { initialState, evolve, decide };
