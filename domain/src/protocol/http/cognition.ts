import { z } from 'zod';
import { paging } from './query.ts';
import { MAX_COLLECTION_DESCRIPTION, MAX_COLLECTION_NAME, MAX_SUMMARY, MAX_TAG, MAX_TAGS, MAX_TITLE } from '../limits.ts';

/**
 * The cognition platform's requests and replies (`/backend/api/cognition…`): cognitions, extractions
 * and the library; see `oauth.ts` for how they are shared. A request schema is the one the route
 * parses with; the client sends its `z.input`.
 */


const codedParams = z.record(z.string(), z.union([z.string(), z.number()]));

export const cognitionSummary = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  tags: z.array(z.string()),
  source_kind: z.enum(['notes', 'url', 'synthesis']),
  public: z.boolean(),
  /** The owner's username. */
  owner: z.string(),
  mine: z.boolean(),
  view_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const citedSource = z.object({ n: z.number().int(), title: z.string(), url: z.string().nullable(), kind: z.enum(['note', 'url', 'cognition']), ref_id: z.string().nullable() });

export const cognitionDetail = cognitionSummary.extend({
  insights: z.array(z.string()),
  /** Markdown with numbered citations [n] into `sources`. */
  content: z.string(),
  sources: z.array(citedSource),
});

export const cognitionPage = z.object({ items: z.array(cognitionSummary), total: z.number().int() });

export const extractionStarted = z.object({ extraction_id: z.string(), status: z.literal('pending') });

/** A failure's reason in Chinese in `error`; `code` and `params`, when given, word it in the reader's language. */
export const extractionStatus = z.object({
  extraction_id: z.string(),
  status: z.enum(['pending', 'running', 'completed', 'failed']),
  cognition_id: z.string().nullable(),
  error: z.string().nullable(),
  code: z.string().optional(),
  params: codedParams.optional(),
  created_at: z.string(),
});

export const collectionReply = z.object({ id: z.string(), name: z.string(), description: z.string(), count: z.number().int(), updated_at: z.string() });
export const collectionList = z.object({ collections: z.array(collectionReply) });
export const collectionDetail = collectionReply.extend({ items: z.array(cognitionSummary) });

export const cognitionViewed = z.object({ cognition_id: z.string(), viewed: z.literal(true) });

export type CognitionSummary = z.infer<typeof cognitionSummary>;
export type CitedSource = z.infer<typeof citedSource>;
export type Cognition = z.infer<typeof cognitionDetail>;
export type CognitionPage = z.infer<typeof cognitionPage>;
export type ExtractionStarted = z.infer<typeof extractionStarted>;
export type ExtractionStatus = z.infer<typeof extractionStatus>;
export type Collection = z.infer<typeof collectionReply>;
export type CollectionList = z.infer<typeof collectionList>;
export type CollectionDetail = z.infer<typeof collectionDetail>;
export type CognitionViewed = z.infer<typeof cognitionViewed>;

/** Requests. */

export const extractBody = z.object({ note_ids: z.array(z.uuid('notes.id_invalid'), { error: 'extraction.note_ids_required' }).max(50) });
export const extractUrlBody = z.object({
  url: z
    .url({ protocol: /^https?$/, error: 'extraction.url_invalid' })
    .max(2000, 'extraction.url_too_long'),
});
export const synthesizeBody = z.object({ cognition_ids: z.array(z.uuid('cognition.id_invalid'), { error: 'extraction.cognition_ids_required' }).max(50) });
export const cognitionEditBody = z
  .object({
    title: z.string().max(MAX_TITLE * 2).optional(),
    summary: z.string().max(MAX_SUMMARY * 2).optional(),
    tags: z.array(z.string().max(MAX_TAG * 2)).max(MAX_TAGS * 2).optional(),
    public: z.boolean().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'cognition.nothing_to_change');
export const collectionBody = z.object({
  name: z.string({ error: 'collection.name_required' }).max(MAX_COLLECTION_NAME * 2),
  description: z.string().max(MAX_COLLECTION_DESCRIPTION * 2).default(''),
});
export const collectionEditBody = z.object({ name: z.string().max(MAX_COLLECTION_NAME * 2).optional(), description: z.string().max(MAX_COLLECTION_DESCRIPTION * 2).optional() });
export const collectionItemBody = z.object({ cognition_id: z.uuid('cognition.id_invalid') });

export type ExtractBody = z.input<typeof extractBody>;
export type ExtractUrlBody = z.input<typeof extractUrlBody>;
export type SynthesizeBody = z.input<typeof synthesizeBody>;
export type CognitionEditBody = z.input<typeof cognitionEditBody>;
export type CollectionBody = z.input<typeof collectionBody>;
export type CollectionEditBody = z.input<typeof collectionEditBody>;
export type CollectionItemBody = z.input<typeof collectionItemBody>;

/** A page of cognitions, public or the reader's own, matching `q` when it is given (GET /api/cognition). */
export const cognitionListQuery = z
  .object({
    q: z.string().trim().max(200, 'cognition.query_too_long').default(''),
    scope: z.enum(['public', 'mine'], { error: 'cognition.scope_invalid' }).default('public'),
  })
  .extend(paging(20, 100).shape);
export type CognitionListQuery = z.input<typeof cognitionListQuery>;
