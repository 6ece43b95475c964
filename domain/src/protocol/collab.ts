import { z } from 'zod';

/**
 * Live collaboration on a shared ProseMirror document (prosemirror-collab, central authority): the
 * wire shapes shared by the api, the socket gateway and the client. A document's version is the
 * number of steps the server accepted; a batch submitted at an older version is refused and the
 * client rebases on the steps it missed, which the socket sends from the log.
 */

export const COLLAB_ROLES = ['edit', 'read'] as const;
export type CollabRole = (typeof COLLAB_ROLES)[number];
/** What a user may do with a document: its owner and editors submit steps, readers only watch. */
export type CollabAccess = 'owner' | CollabRole;

export const COLLAB_LIMITS = {
  title: 200,
  /** Steps in one submitted batch: prosemirror-collab sends what piled up while a batch was in flight. */
  batch: 500,
  /** The document's content size (ProseMirror positions), about as many characters. */
  docSize: 500_000,
  clientId: 64,
  /** Versions served by one page of history. */
  historyPage: 500,
} as const;

/** Every this many steps the decider records the whole document, so loading and replay start there. */
export const COLLAB_SNAPSHOT_EVERY = 100;
/** A member silent this long (no ping, no selection) leaves the presence list. */
export const COLLAB_PRESENCE_TIMEOUT_MS = 15_000;
/** Selections move with every key: a client says its own, and an api process its members', at most this often. */
export const COLLAB_PRESENCE_THROTTLE_MS = 120;
/** How often a client says it is still here. */
export const COLLAB_PING_MS = 5_000;
/** Presence colours: the client maps an index to a design token (`--collab-N`). */
export const COLLAB_COLOURS = 8;

export const collabDocIdSchema = z.string().regex(/^[a-f0-9]{32}$/, 'collab.id_invalid');

/** A document starts empty, or as a research report's canvas to co-edit: its session, version and content (already in `collabSchema`). */
export const createCollabDocSchema = z
  .object({
    title: z.string().trim().min(1, 'collab.title_empty').max(COLLAB_LIMITS.title, 'collab.title_too_long'),
    report: z.object({ session_id: z.string().min(1).max(100), version: z.number().int().min(1) }).strict().optional(),
    doc: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .refine((body) => (body.report === undefined) === (body.doc === undefined), { path: ['doc'], message: 'collab.doc_invalid' });
export const createCollabInviteSchema = z.object({ role: z.enum(COLLAB_ROLES, 'collab.role_invalid') }).strict();
/** The owner's rename: the same rules as a new document's title. */
export const renameCollabDocSchema = z.object({ title: z.string().trim().min(1, 'collab.title_empty').max(COLLAB_LIMITS.title, 'collab.title_too_long') }).strict();
export const changeCollabRoleSchema = createCollabInviteSchema;
export const collabInviteIdSchema = z.uuid('collab.invite_not_found');
export const collabMemberIdSchema = z.string().min(1).max(100);
export const acceptCollabInviteSchema = z.object({ token: z.string().regex(/^[a-f0-9]{32}\.[A-Za-z0-9_-]{43}$/, 'collab.invite_invalid') }).strict();
export type CreateCollabDocBody = z.input<typeof createCollabDocSchema>;
export type CreateCollabInviteBody = z.input<typeof createCollabInviteSchema>;
export type RenameCollabDocBody = z.input<typeof renameCollabDocSchema>;
export type ChangeCollabRoleBody = z.input<typeof changeCollabRoleSchema>;
export type AcceptCollabInviteBody = z.input<typeof acceptCollabInviteSchema>;

// The replies of the shared-document routes: declared by the routes (their OpenAPI responses) and inferred here for the client.
const collabAccess = z.enum(['owner', ...COLLAB_ROLES]);

export const collabMemberSchema = z.object({ user_id: z.string(), name: z.string(), access: collabAccess, joined_at: z.string() });
export type CollabMemberDto = z.infer<typeof collabMemberSchema>;

export const collabDocSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  /** The research report this document co-edits, when it started as one. */
  report: z.object({ session_id: z.string(), version: z.number().int() }).nullable(),
  owner_id: z.string(),
  access: collabAccess,
  version: z.number().int(),
  member_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CollabDocSummaryDto = z.infer<typeof collabDocSummarySchema>;
export const collabDocListSchema = z.object({ docs: z.array(collabDocSummarySchema) });
export type CollabDocListDto = z.infer<typeof collabDocListSchema>;

/** A ProseMirror document as `Node.toJSON()` writes it (collabSchema.ts says which nodes it may hold). */
const proseMirrorDoc = z.looseObject({ type: z.literal('doc'), content: z.array(z.unknown()).optional() });

/** A document as the editor opens it: its content at `version`, from which the socket resumes. */
export const collabDocSchema = collabDocSummarySchema.extend({ members: z.array(collabMemberSchema), doc: proseMirrorDoc });
export type CollabDocDto = z.infer<typeof collabDocSchema>;

/** A link just created: its secret (`token`) is shown this once. */
export const collabInviteSchema = z.object({ id: z.string(), token: z.string(), role: z.enum(COLLAB_ROLES), created_at: z.string() });
export type CollabInviteDto = z.infer<typeof collabInviteSchema>;

/** A live link as its owner lists it: never its secret, and how many people joined through it. */
export const collabInviteSummarySchema = z.object({ id: z.string(), role: z.enum(COLLAB_ROLES), created_at: z.string(), joined_count: z.number().int() });
export type CollabInviteSummaryDto = z.infer<typeof collabInviteSummarySchema>;

export const collabInvitesSchema = z.object({ invites: z.array(collabInviteSummarySchema) });
export type CollabInvitesDto = z.infer<typeof collabInvitesSchema>;

export const collabMembersSchema = z.object({ members: z.array(collabMemberSchema) });
export type CollabMembersDto = z.infer<typeof collabMembersSchema>;

/** One accepted batch as the history lists it: versions `version` to `version + steps`. */
export const collabHistoryEntrySchema = z.object({ version: z.number().int(), steps: z.number().int(), user_id: z.string(), name: z.string(), at: z.string() });
export type CollabHistoryEntryDto = z.infer<typeof collabHistoryEntrySchema>;

export const collabHistorySchema = z.object({ version: z.number().int(), entries: z.array(collabHistoryEntrySchema) });
export type CollabHistoryDto = z.infer<typeof collabHistorySchema>;

export const collabVersionSchema = z.object({ version: z.number().int(), doc: proseMirrorDoc });
export type CollabVersionDto = z.infer<typeof collabVersionSchema>;

export const selectionSchema = z.object({ anchor: z.number().int().min(0), head: z.number().int().min(0) }).strict();
export type CollabSelection = z.infer<typeof selectionSchema>;

/** What a client may send on a document's socket. */
export const collabClientMessageSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('collab.steps'),
      version: z.number().int().min(0),
      steps: z.array(z.record(z.string(), z.unknown())).min(1).max(COLLAB_LIMITS.batch),
      client_id: z.string().min(1).max(COLLAB_LIMITS.clientId),
    })
    .strict(),
  z.object({ type: z.literal('collab.presence'), version: z.number().int().min(0), selection: selectionSchema.nullable() }).strict(),
  z.object({ type: z.literal('ping') }).strict(),
  z.object({ type: z.literal('heartbeat') }).strict(),
]);
export type CollabClientMessage = z.infer<typeof collabClientMessageSchema>;

export interface CollabPeer {
  /** One entry per open editor: a user with two tabs shows two cursors. */
  session: string;
  user_id: string;
  name: string;
  colour: number;
  access: CollabAccess;
  version: number;
  selection: CollabSelection | null;
}

/**
 * What the document's socket sends. `collab.steps` comes from the log only (its author's own batch
 * too, which is how prosemirror-collab confirms it); `collab.accepted` and `collab.rejected` answer
 * the sender of one batch; `collab.renamed` tells every member the owner's new title, `collab.access`
 * a member their new role (an edit link upgraded them, or the owner changed it). A member who is
 * removed (or leaves) has their sockets on the document closed with `CLOSE_REMOVED`.
 */
export type CollabSocketMessage =
  | { type: 'collab.ready'; doc_id: string; version: number; access: CollabAccess; session: string }
  | { type: 'collab.steps'; doc_id: string; version: number; steps: unknown[]; client_id: string; user_id: string }
  | { type: 'collab.accepted'; doc_id: string; version: number }
  | { type: 'collab.rejected'; doc_id: string; version: number; code: string; error_message: string; params?: Record<string, string | number> }
  | { type: 'collab.presence'; doc_id: string; peers: CollabPeer[] }
  | { type: 'collab.renamed'; doc_id: string; title: string }
  | { type: 'collab.access'; doc_id: string; access: CollabAccess }
  | { type: 'heartbeat'; timestamp: string }
  | { type: 'error'; error_message: string; code: string; params?: Record<string, string | number> };

const coded = { code: z.string(), error_message: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])).optional() };
/** One presence entry, as the client reads it and as an api process checks another's before showing it. */
export const collabPeerSchema = z.object({ session: z.string(), user_id: z.string(), name: z.string(), colour: z.number().int(), access: z.enum(['owner', 'edit', 'read']), version: z.number().int(), selection: selectionSchema.nullable() });

/** The client parses every server message with this, as it does the other sockets. */
export const collabSocketMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('collab.ready'), doc_id: z.string(), version: z.number().int(), access: z.enum(['owner', 'edit', 'read']), session: z.string() }),
  z.object({ type: z.literal('collab.steps'), doc_id: z.string(), version: z.number().int(), steps: z.array(z.unknown()), client_id: z.string(), user_id: z.string() }),
  z.object({ type: z.literal('collab.accepted'), doc_id: z.string(), version: z.number().int() }),
  z.object({ type: z.literal('collab.rejected'), doc_id: z.string(), version: z.number().int(), ...coded }),
  z.object({ type: z.literal('collab.presence'), doc_id: z.string(), peers: z.array(collabPeerSchema) }),
  z.object({ type: z.literal('collab.renamed'), doc_id: z.string(), title: z.string() }),
  z.object({ type: z.literal('collab.access'), doc_id: z.string(), access: z.enum(['owner', 'edit', 'read']) }),
  z.object({ type: z.literal('heartbeat'), timestamp: z.string() }),
  z.object({ type: z.literal('error'), ...coded }),
]) satisfies z.ZodType<CollabSocketMessage>;

export const collabSocketPath = (docId: string): string => `/backend/api/collab/ws/${docId}`;
