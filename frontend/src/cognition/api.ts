import type {
  Cognition,
  CognitionEditBody,
  CognitionListQuery,
  CognitionPage,
  CognitionSummary,
  CognitionViewed,
  Collection,
  CollectionBody,
  CollectionDetail,
  CollectionEditBody,
  CollectionItemBody,
  CollectionList,
  ExtractBody,
  ExtractionStarted,
  ExtractionStatus,
  ExtractUrlBody,
  SynthesizeBody,
} from '@scriptorium/domain/protocol/http/cognition';
import type { Deleted } from '@scriptorium/domain/protocol/http/acknowledged';
import { api } from '../api/client.ts';
import { pollExtraction, type PollOptions } from './extractionPoll.ts';

export type { ExtractionState, ExtractionStatus } from './extractionPoll.ts';

export type { Cognition, CognitionPage, CognitionSummary, Collection, CollectionDetail, ExtractionStarted } from '@scriptorium/domain/protocol/http/cognition';

export type SourceKind = CognitionSummary['source_kind'];

/** One way to make a cognition; every kind runs as a job polled the same way. */
export type ExtractionRequest = { kind: 'notes'; noteIds: readonly string[] } | { kind: 'url'; url: string } | { kind: 'synthesis'; cognitionIds: readonly string[] };


export const PAGE_SIZE = 20;

const base = '/api/cognition';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;
const collection = (id: string) => `${base}/collections/${encodeURIComponent(id)}`;

export const listCognitions = ({ q = '', scope = 'public', skip = 0, limit = PAGE_SIZE }: CognitionListQuery, signal?: AbortSignal) =>
  api.get<CognitionPage, CognitionListQuery>(base, { query: { q: q === '' ? undefined : q, scope, skip, limit }, ...(signal && { signal }) });

export const getCognition = (id: string, signal?: AbortSignal) => api.get<Cognition>(one(id), { ...(signal && { signal }) });

/** Counts the signed-in reader's view (once per reader) and the daily task 浏览认知. */
export const recordCognitionView = (id: string) => api.post<CognitionViewed>(`${one(id)}/view`);

export const updateCognition = (id: string, patch: CognitionEditBody) => api.patch<Cognition, CognitionEditBody>(one(id), { json: patch });

export const deleteCognition = (id: string) => api.delete<Deleted>(one(id));

export const extractFromNotes = (noteIds: readonly string[]) => api.post<ExtractionStarted, ExtractBody>(`${base}/extract`, { json: { note_ids: [...noteIds] } });

export const extractFromUrl = (url: string) => api.post<ExtractionStarted, ExtractUrlBody>(`${base}/extract-url`, { json: { url } });

export const synthesizeCognitions = (cognitionIds: readonly string[]) => api.post<ExtractionStarted, SynthesizeBody>(`${base}/synthesize`, { json: { cognition_ids: [...cognitionIds] } });

export function startExtraction(request: ExtractionRequest): Promise<ExtractionStarted> {
  switch (request.kind) {
    case 'notes':
      return extractFromNotes(request.noteIds);
    case 'url':
      return extractFromUrl(request.url);
    case 'synthesis':
      return synthesizeCognitions(request.cognitionIds);
  }
}

export const getExtraction = (id: string, signal?: AbortSignal) => api.get<ExtractionStatus>(`${base}/extractions/${encodeURIComponent(id)}`, { ...(signal && { signal }) });

/** Polls an extraction once a second until it completes or fails; abort the signal to stop. */
export const waitForExtraction = (id: string, options: PollOptions = {}) => pollExtraction((signal) => getExtraction(id, signal), options);

export const listCollections = () => api.get<CollectionList>(`${base}/collections`);

export const createCollection = (name: string, description = '') => api.post<Collection, CollectionBody>(`${base}/collections`, { json: { name, description } });

export const getCollection = (id: string, signal?: AbortSignal) => api.get<CollectionDetail>(collection(id), { ...(signal && { signal }) });

export const updateCollection = (id: string, patch: CollectionEditBody) => api.patch<Collection, CollectionEditBody>(collection(id), { json: patch });

export const deleteCollection = (id: string) => api.delete<Deleted>(collection(id));

export const addToCollection = (id: string, cognitionId: string) => api.post<Collection, CollectionItemBody>(`${collection(id)}/items`, { json: { cognition_id: cognitionId } });

export const removeFromCollection = (id: string, cognitionId: string) => api.delete<Collection>(`${collection(id)}/items/${encodeURIComponent(cognitionId)}`);

/** The public address of a shared cognition (it opens only while the cognition is public). */
export const shareLink = (id: string, origin: string = window.location.origin) => `${origin}/share/cognition/${encodeURIComponent(id)}`;
