/**
 * The real-time socket's messages, both ways, as schemas: the gateway parses what clients send with
 * them, the client parses what the server sends, and every type is inferred from them.
 */
import { z } from 'zod';
import { AGENTS } from './agents.ts';
import { wireContentSchema } from './content.ts';
import { clarificationAnswerSchema, FEEDBACK_OPTIONS } from './research.ts';

export { CLOSE_ACCOUNT_INACTIVE, CLOSE_FORBIDDEN, CLOSE_NOT_FOUND, CLOSE_REMOVED, CLOSE_SHUTTING_DOWN, CLOSE_UNAUTHORIZED, HEARTBEAT_INTERVAL_MS } from './socketCodes.ts';

// Server → client.

const heartbeatSchema = z.object({ type: z.literal('heartbeat'), timestamp: z.string() });
/** Sent when the client's message could not be used; the socket stays open. */
/** `error_message` is the catalogue's Chinese text for `code`. */
/** `session_id` and `content_type` name the refused envelope's session and content, when it had them. */
const socketErrorSchema = z.object({
  type: z.literal('error'),
  error_message: z.string(),
  code: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  session_id: z.string().optional(),
  content_type: z.string().optional(),
});
/** Something appended to a session. `position` lets a reconnecting client resume. */
export const sessionMessageSchema = z.object({ type: z.literal('message'), session_id: z.string(), position: z.number().int(), content: wireContentSchema });
export const metadataUpdateSchema = z.object({
  type: z.literal('metadata_update'),
  session_id: z.string(),
  position: z.number().int(),
  updated_fields: z.object({ title: z.string().optional(), name: z.string().optional(), collaboration_mode: z.union([z.literal(0), z.literal(1)]).optional(), search_enabled: z.boolean().optional() }),
});
/** After a subscribe: everything up to `position` has been sent. */
const subscribedSchema = z.object({ type: z.literal('subscribed'), session_id: z.string(), position: z.number().int() });

export const serverMessageSchema = z.discriminatedUnion('type', [heartbeatSchema, socketErrorSchema, sessionMessageSchema, metadataUpdateSchema, subscribedSchema]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
export type HeartbeatMessage = z.infer<typeof heartbeatSchema>;
export type SocketErrorMessage = z.infer<typeof socketErrorSchema>;
export type SessionMessage = z.infer<typeof sessionMessageSchema>;
export type MetadataUpdateMessage = z.infer<typeof metadataUpdateSchema>;
export type SubscribedMessage = z.infer<typeof subscribedSchema>;

// Client → server.

/** Frames a socket may send in one burst, and how many more it earns per second. */
export const FRAME_BURST = 40;
export const FRAMES_PER_SECOND = 10;

/** Agents a client may address; `none` is used to subscribe. */
export const wireAgentSchema = z.enum([...AGENTS, 'none'], { error: 'socket.agent_invalid' });
export type WireAgent = z.infer<typeof wireAgentSchema>;

/** The spec names the text field differently in different places; any of them is the message. */
const input = { content: z.string().optional(), text: z.string().optional(), message: z.string().optional() };

/** What `POST /conversation/api/upload_file` answers as `file_url`. */
export const UPLOADED_FILE_URL = /^\/backend\/conversation\/api\/files\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export const clientPayloadSchema = z.discriminatedUnion(
  'content_type',
  [
    /** With `last_position`, first everything after it, once, in order. */
    z.object({ content_type: z.literal('subscribe'), last_position: z.number().int().min(0).optional() }),
    z.object({ content_type: z.literal('unsubscribe') }),
    z.object({ content_type: z.literal('user_input'), ...input }),
    z.object({ content_type: z.literal('question'), ...input }),
    z.object({ content_type: z.literal('pause') }),
    z.object({ content_type: z.literal('resume') }),
    z.object({ content_type: z.literal('clarification_answer'), answers: z.array(clarificationAnswerSchema).min(1).max(50) }),
    z.object({ content_type: z.literal('feedback_response'), option: z.enum(FEEDBACK_OPTIONS), text: z.string().max(5000).optional() }),
    // offset and version: where the selection is, so equal text elsewhere in the report is left alone.
    z.object({ content_type: z.literal('targeted_edit'), request_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(), text: z.string().max(2000), snippet: z.string().max(20_000), offset: z.number().int().min(0).optional(), version: z.number().int().min(1).optional() }),
    /** A file uploaded with `POST /conversation/api/upload_file` becomes a context of the session, as `upload_file` would make it. */
    z.object({ content_type: z.literal('add_context'), file_url: z.string().regex(UPLOADED_FILE_URL, 'socket.file_url_invalid'), file_type: z.string().max(100).optional(), round: z.number().int().min(0).max(10_000).optional() }),
  ],
  { error: (issue) => (issue.code === 'invalid_union' ? `content_type 不支持: ${String((issue.input as { content_type?: unknown } | undefined)?.content_type)}` : undefined) },
);
export type ClientPayload = z.input<typeof clientPayloadSchema>;

export const clientEnvelopeSchema = z.object({ session_id: z.uuid('socket.session_id_invalid'), agent: wireAgentSchema, payload: clientPayloadSchema });
/** What a client sends (defaults not yet applied)… */
export type ClientEnvelope = z.input<typeof clientEnvelopeSchema>;
/** …and what the gateway works with. */
export type ParsedEnvelope = z.output<typeof clientEnvelopeSchema>;
