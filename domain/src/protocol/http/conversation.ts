import { z } from 'zod';

/** The research conversation's replies (`/backend/conversation…`), the ones described so far; see `oauth.ts` for how they are shared. */

export const sessionCreated = z.object({ session_id: z.string() });

export const researchStatus = z.object({
  session_id: z.string(),
  status: z.enum(['idle', 'processing', 'paused', 'waiting']),
  processing: z.boolean(),
  /** The reply under way, if any: what to resume or pause. */
  active_reply: z.object({ message_id: z.string(), agent: z.string(), job_id: z.string() }).nullable(),
});

/** `paused: false` when nothing was running. */
export const researchPaused = z.object({ session_id: z.string(), paused: z.boolean() });
export const researchResumed = z.object({ session_id: z.string(), reply_id: z.string() });

export const availableModels = z.object({
  models: z.array(z.object({ id: z.string(), name: z.string(), offline: z.boolean(), default: z.boolean() })),
  current: z.string(),
  offline: z.boolean(),
});
export const modelPreference = z.object({ model: z.string() });

export const editRequested = z.object({ session_id: z.string(), request_id: z.string(), from_version: z.number().int(), status: z.literal('submitted') });
export const reportFeedbackSaved = z.object({ success: z.literal(true) });

/** Speech recognition (`/conversation/api/v2/asr/…`): whether it is configured, and what a recording said. */
export const speechStatus = z.object({ configured: z.boolean() });
export const speechText = z.object({ success: z.literal(true), text: z.string() });
/** The recording's text, sent as the session's next question. */
export const speechQuestion = speechText.extend({ session_id: z.string(), message_id: z.string(), reply_id: z.string() });

export type SpeechStatus = z.infer<typeof speechStatus>;
export type SpeechText = z.infer<typeof speechText>;
export type SpeechQuestion = z.infer<typeof speechQuestion>;
export type SessionCreated = z.infer<typeof sessionCreated>;
export type ResearchStatus = z.infer<typeof researchStatus>;
export type ResearchPaused = z.infer<typeof researchPaused>;
export type ResearchResumed = z.infer<typeof researchResumed>;
export type AvailableModels = z.infer<typeof availableModels>;
export type ModelPreference = z.infer<typeof modelPreference>;
export type EditRequested = z.infer<typeof editRequested>;
export type ReportFeedbackSaved = z.infer<typeof reportFeedbackSaved>;

/** Share links of a conversation and of one artifact (`/conversation/sessions/share`, `/conversation/artifacts/share`). */
export const conversationShared = z.object({ share_id: z.string(), path: z.string(), include_private: z.boolean() });
export const conversationShareRevoked = z.object({ share_id: z.string(), revoked: z.literal(true) });
export const artifactShared = z.object({ share_id: z.string(), path: z.string() });
export const sharedArtifact = z.object({ share_id: z.string(), filename: z.string(), filetype: z.enum(['html', 'markdown']), content: z.string(), created_at: z.string(), expires_at: z.string().nullable() });

export type ConversationShared = z.infer<typeof conversationShared>;
export type ConversationShareRevoked = z.infer<typeof conversationShareRevoked>;
export type ArtifactShared = z.infer<typeof artifactShared>;
export type SharedArtifact = z.infer<typeof sharedArtifact>;
