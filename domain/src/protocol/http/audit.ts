import { z } from 'zod';
import { metadataUpdateSchema, sessionMessageSchema } from '../ws.ts';

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
