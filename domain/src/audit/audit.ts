import type { DomainEvent } from '@scriptorium/infra/eventsourcing/decider';

/**
 * What auditors looked at: stream `audit-<auditorId>-<day>`, one per auditor and day so no stream
 * grows for ever. Reading the log is itself part of the log, so admins can see who read what.
 */
export const AUDIT_ACTIONS = ['events', 'export', 'search'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type StreamAudited = DomainEvent<
  'StreamAudited',
  {
    auditorId: string;
    /** The stream read, or the search text for `search`. */
    streamId: string;
    action: AuditAction;
    /** For `events`: the page read, as positions after which and how many. */
    after?: number;
    count?: number;
    at: string;
  }
>;
export type AuditEvent = StreamAudited;

/** Nothing is decided from earlier reads: every read is recorded. */
export type AuditLog = { status: 'open' };

export const initialState = (): AuditLog => ({ status: 'open' });
export const evolve = (state: AuditLog): AuditLog => state;

export const auditStream = (auditorId: string, day: string): string => `audit-${auditorId}-${day}`;
