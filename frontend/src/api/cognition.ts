import type { CitedSource } from '../cognition/citations.ts';
import { api } from './client.ts';
import { pollExtraction, type ExtractionStatus, type PollOptions } from './extractionPoll.ts';

export type { ExtractionState, ExtractionStatus } from './extractionPoll.ts';

export type SourceKind = 'notes' | 'url' | 'synthesis';

export interface CognitionSummary {
  id: string;
  title: string;
  summary: string;
  tags: string[];
  source_kind: SourceKind;
  public: boolean;
  /** The owner's username. */
  owner: string;
  mine: boolean;
  view_count: number;
  created_at: string;
  updated_at: string;
}

export interface Cognition extends CognitionSummary {
  insights: string[];
  /** Markdown with numbered citations [n] into `sources`. */
  content: string;
  sources: CitedSource[];
}

export interface CognitionPage {
  items: CognitionSummary[];
  total: number;
}

export interface Collection {
  id: string;
  name: string;
  description: string;
  count: number;
  updated_at: string;
}

export interface CollectionDetail extends Collection {
  items: CognitionSummary[];
}

export interface ExtractionStarted {
  extraction_id: string;
  status: 'pending';
}

/** One way to make a cognition; every kind runs as a job polled the same way. */
export type ExtractionRequest = { kind: 'notes'; noteIds: readonly string[] } | { kind: 'url'; url: string } | { kind: 'synthesis'; cognitionIds: readonly string[] };

export interface ListQuery {
  q?: string;
  scope?: 'public' | 'mine';
  skip?: number;
  limit?: number;
}

export const PAGE_SIZE = 20;

const base = '/api/cognition';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;
const collection = (id: string) => `${base}/collections/${encodeURIComponent(id)}`;

export const listCognitions = ({ q = '', scope = 'public', skip = 0, limit = PAGE_SIZE }: ListQuery, signal?: AbortSignal) =>
  api.get<CognitionPage>(base, { query: { q: q === '' ? undefined : q, scope, skip, limit }, ...(signal && { signal }) });

export const getCognition = (id: string, signal?: AbortSignal) => api.get<Cognition>(one(id), { ...(signal && { signal }) });

/** Counts the signed-in reader's view (once per reader) and the daily task 浏览认知. */
export const recordCognitionView = (id: string) => api.post<{ cognition_id: string; viewed: true }>(`${one(id)}/view`);

export const updateCognition = (id: string, patch: Partial<Pick<Cognition, 'title' | 'summary' | 'tags' | 'public'>>) => api.patch<Cognition>(one(id), { json: patch });

export const deleteCognition = (id: string) => api.delete<{ deleted: true }>(one(id));

export const extractFromNotes = (noteIds: readonly string[]) => api.post<ExtractionStarted>(`${base}/extract`, { json: { note_ids: noteIds } });

export const extractFromUrl = (url: string) => api.post<ExtractionStarted>(`${base}/extract-url`, { json: { url } });

export const synthesizeCognitions = (cognitionIds: readonly string[]) => api.post<ExtractionStarted>(`${base}/synthesize`, { json: { cognition_ids: cognitionIds } });

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

export const listCollections = () => api.get<{ collections: Collection[] }>(`${base}/collections`);

export const createCollection = (name: string, description = '') => api.post<Collection>(`${base}/collections`, { json: { name, description } });

export const getCollection = (id: string, signal?: AbortSignal) => api.get<CollectionDetail>(collection(id), { ...(signal && { signal }) });

export const updateCollection = (id: string, patch: { name?: string; description?: string }) => api.patch<Collection>(collection(id), { json: patch });

export const deleteCollection = (id: string) => api.delete<{ deleted: true }>(collection(id));

export const addToCollection = (id: string, cognitionId: string) => api.post<Collection>(`${collection(id)}/items`, { json: { cognition_id: cognitionId } });

export const removeFromCollection = (id: string, cognitionId: string) => api.delete<Collection>(`${collection(id)}/items/${encodeURIComponent(cognitionId)}`);

/** The public address of a shared cognition (it opens only while the cognition is public). */
export const shareLink = (id: string, origin: string = window.location.origin) => `${origin}/share/cognition/${encodeURIComponent(id)}`;
