import { z } from 'zod';
import { metadataUpdateSchema, sessionMessageSchema } from '../ws.ts';
import { queryNumber } from './query.ts';

/** The auditor's replies (`/backend/audit…`); see `oauth.ts` for how they are shared. */

const owned = { user_id: z.string(), username: z.string().nullable() };

export const auditSearch = z.object({
  conversations: z.array(z.object({ stream: z.string(), id: z.string(), ...owned, title: z.string().nullable(), created_at: z.string(), canvas_version: z.number().int().nullable().optional() })),
  engineer_sessions: z.array(z.object({ stream: z.string(), id: z.string(), ...owned, title: z.string(), created_at: z.string() })),
  trajectories: z.array(z.object({ stream: z.string(), id: z.string(), ...owned, title: z.string(), created_at: z.string() })),
  users: z.array(z.object({ stream: z.string(), id: z.string(), username: z.string(), nickname: z.string(), created_at: z.string() })),
});

/** One recorded event as an auditor reads it: its data with secrets redacted, and what a client was sent for it (`wire`, a conversation's socket message; protocol/ws.ts). */
export const auditEvent = z.object({
  position: z.number().int(),
  revision: z.number().int(),
  id: z.string(),
  type: z.string(),
  at: z.string(),
  actor: z.string().nullable(),
  actor_name: z.string().nullable(),
  correlation_id: z.string().nullable(),
  causation_id: z.string().nullable(),
  size: z.number().int(),
  data: z.record(z.string(), z.unknown()),
  wire: z.union([sessionMessageSchema, metadataUpdateSchema]).nullable(),
});

export const auditEvents = z.object({ stream: z.string(), total: z.number().int(), events: z.array(auditEvent), next: z.number().int().nullable() });

export type AuditSearch = z.infer<typeof auditSearch>;
export type AuditEvent = z.infer<typeof auditEvent>;
export type AuditEvents = z.infer<typeof auditEvents>;

/** Pages small enough to fold without a pause, large enough that 50,000 events are 50 requests. */
export const AUDIT_PAGE = 1000;

/** A page of one stream's events (GET /audit/streams/:stream/events). */
export const auditEventsQuery = z.object({
  /** Revision to start from (inclusive), so pages follow each other without a gap. */
  from: queryNumber().int().min(0).default(0),
  limit: queryNumber().int().min(1).max(AUDIT_PAGE).default(AUDIT_PAGE),
});
/** What /audit's search form asks (GET /audit/search). */
export const auditSearchQuery = z.object({
  q: z.string().trim().max(200).optional(),
  user: z.string().trim().max(64).optional(),
  /** Days (YYYY-MM-DD), inclusive, on the creation date. */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  kind: z.enum(['all', 'conversation', 'engineer', 'trajectory', 'user']).default('all'),
});
export type AuditEventsQuery = z.input<typeof auditEventsQuery>;
export type AuditSearchQuery = z.input<typeof auditSearchQuery>;
