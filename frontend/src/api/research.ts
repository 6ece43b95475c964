import type {
  ArtifactShareBody,
  ArtifactShared,
  CanvasEditBody,
  ChatSendBody,
  ClarificationAnswerBody,
  ConversationShareBody,
  CreateSessionBody,
  DispatchBody,
  Dispatched,
  EditRequestBody,
  PlanEditBody,
  PlanReviewBody,
  ResearchFeedbackBody,
  SearchStatusBody,
  SessionNameBody,
  SessionTitleBody,
  SetModeBody,
  AvailableModels,
  ChatsMyQuery,
  HistoryPageQuery,
  MarkdownPdfBody,
  SharePdfQuery,
  Canvas,
  CollaborationMode,
  ConversationShared,
  ConversationShareRevoked,
  EditRequested,
  MessagePosted,
  MyChats,
  PendingQuestions,
  Plan,
  PlanReview,
  ResearchBudget,
  ResearchPaused,
  ResearchResumed,
  Session,
  SessionHistory,
  SessionShares,
  SharedArtifact,
  SharedConversation,
  SpeechStatus,
  SpeechText,
} from '@scriptorium/domain/protocol/http/conversation';
import type { ContentPreferenceBody, ContentPreferenceReply, ContextFileAdded, ContextUploaded, NoteSelected, SelectNoteBody } from '@scriptorium/domain/protocol/http/contexts';
import type { TaskActionBody, TaskActionResults } from '@scriptorium/domain/protocol/http/tasks';
import type { FeedbackOption } from '@scriptorium/domain/protocol/research';
import { i18n } from '../i18n/index.ts';
import { api, type DownloadedFile } from './client.ts';
import { browserTokens } from './token.ts';

const encode = encodeURIComponent;

export const research = {
  createSession: (body: CreateSessionBody & { client_id: string }) => api.post<Session, CreateSessionBody>('/conversation/api/v2/research/create_session', { json: body }),
  session: (id: string) => api.get<Session>(`/conversation/research/${encode(id)}`),
  /** The newest `limit` exchanges before the cursor `before` (a page's `earlier`), or the whole history without a page. */
  messages: (id: string, page?: HistoryPageQuery) => api.get<SessionHistory, HistoryPageQuery>(`/conversation/sessions/${encode(id)}/messages`, page && { query: page }),
  myChats: (skip: number, limit: number) => api.get<MyChats, ChatsMyQuery>('/conversation/api/chats/my', { query: { skip, limit } }),
  setMode: (sessionId: string, mode: CollaborationMode) => api.post<Session, SetModeBody>('/conversation/api/v2/research/set_mode', { json: { session_id: sessionId, mode } }),
  setSearch: (sessionId: string, enabled: boolean) => api.post<Session, SearchStatusBody>('/conversation/api/v2/research/update_search_status', { json: { session_id: sessionId, search_enabled: enabled } }),
  rename: (sessionId: string, name: string) => api.put<Session, SessionNameBody>(`/conversation/api/v2/sessions/${encode(sessionId)}/name`, { json: { name } }),
  setTitle: (sessionId: string, title: string) => api.put<Session, SessionTitleBody>(`/conversation/api/v2/sessions/${encode(sessionId)}/title`, { json: { title } }),
  pause: (sessionId: string) => api.post<ResearchPaused>(`/conversation/research/${encode(sessionId)}/pause`),
  resume: (sessionId: string) => api.post<ResearchResumed>(`/conversation/research/${encode(sessionId)}/resume`),
  models: () => api.get<AvailableModels>('/conversation/api/models/available'),
  canvas: (sessionId: string) => api.get<Canvas>(`/conversation/research/${encode(sessionId)}/canvas`),
  pendingQuestions: (sessionId: string) => api.get<PendingQuestions>(`/conversation/research/${encode(sessionId)}/pending_questions`),
  answerClarification: (sessionId: string, answers: ClarificationAnswerBody['answers']) => api.post<Session, ClarificationAnswerBody>(`/conversation/research/${encode(sessionId)}/clarification_answer`, { json: { answers } }),
  feedback: (sessionId: string, option: FeedbackOption, text?: string) =>
    api.post<Session, ResearchFeedbackBody>(`/conversation/research/${encode(sessionId)}/feedback`, { json: { option, ...(text !== undefined && { text }) } }),
  /** The plan waiting for review, as the user wrote it; an edit stops its countdown. */
  editPlan: (sessionId: string, steps: PlanEditBody['steps']) => api.put<Plan, PlanEditBody>(`/conversation/research/${encode(sessionId)}/plan`, { json: { steps } }),
  startPlan: (sessionId: string) => api.post<Plan>(`/conversation/research/${encode(sessionId)}/plan/start`),
  planReview: () => api.get<PlanReview>('/conversation/api/preferences/plan_review'),
  setPlanReview: (reviewPlans: boolean) => api.put<PlanReview, PlanReviewBody>('/conversation/api/preferences/plan_review', { json: { review_plans: reviewPlans } }),
  /** A hand edit of the canvas, saved as the version after `from_version`. */
  saveCanvas: (sessionId: string, body: CanvasEditBody) => api.put<Canvas, CanvasEditBody>(`/conversation/research/${encode(sessionId)}/canvas`, { json: body }),
  send: (sessionId: string, message: string) => api.post<MessagePosted, ChatSendBody>('/conversation/api/v2/chat/send', { json: { session_id: sessionId, message } }),
  /** `offset` and `version` say where the selection is, so the edit changes that occurrence and no other. */
  editRequest: (sessionId: string, body: EditRequestBody & { request_id: string; offset: number; version: number }) =>
    api.post<EditRequested, EditRequestBody>(`/conversation/research/${encode(sessionId)}/edit_request`, { json: body }),
  share: (body: ConversationShareBody) => api.post<ConversationShared, ConversationShareBody>('/conversation/sessions/share', { json: body }),
  shared: (shareId: string, page?: HistoryPageQuery) => api.get<SharedConversation, HistoryPageQuery>(`/conversation/share/${encode(shareId)}`, page && { query: page }),
  shareArtifact: (body: ArtifactShareBody) => api.post<ArtifactShared, ArtifactShareBody>('/conversation/artifacts/share', { json: body }),
  /** The session's links (its conversation and its files), newest first, revoked and expired ones too. */
  shares: (sessionId: string) => api.get<SessionShares>(`/conversation/api/research/share/${encode(sessionId)}`).then((body) => body.shares),
  revokeShare: (shareId: string) => api.delete<ConversationShareRevoked>(`/conversation/share/${encode(shareId)}`),
  /** How the report is to be written (length, style, language, a note for the writer). */
  setContentPreference: (body: ContentPreferenceBody) => api.post<ContentPreferenceReply, ContentPreferenceBody>('/conversation/api/research/content_preference', { json: body }),
  /** A note the writer is to draw on. */
  selectNote: (sessionId: string, noteId: string) => api.post<NoteSelected, SelectNoteBody>(`/conversation/api/research/select_note/${encode(noteId)}`, { json: { conversation_id: sessionId } }),
  /** Runs an agent's action in the session (the direct writing agent's send). */
  dispatch: (sessionId: string, body: DispatchBody) => api.post<Dispatched, DispatchBody>(`/conversation/sessions/${encode(sessionId)}/dispatch`, { json: body }),
  sharedArtifact: (shareId: string) => api.get<SharedArtifact>(`/conversation/artifact-share/${encode(shareId)}`),
};

export async function uploadFile(conversationId: string, file: File, fileType: string): Promise<ContextFileAdded> {
  const form = new FormData();
  form.set('conversation_id', conversationId);
  form.set('file', file);
  form.set('file_type', fileType);
  const reply = await api.post<ContextUploaded>('/conversation/v2/research/upload_file', { multipart: form });
  // Spec §5: the upload fails with 上传失败 (errors.uploadFailed), in the reader's language.
  if (!reply.success) throw new Error(i18n.t('errors.uploadFailed'));
  return reply.data;
}

/** A saved canvas version as the server stores it, with the file name it gives. */
export const canvasMarkdown = (sessionId: string, version: number): Promise<DownloadedFile> => api.getFile(`/conversation/research/${encode(sessionId)}/canvas/${version}/markdown`);

export const markdownToPdf = async (markdown: string, filename: string): Promise<Blob> =>
  (await api.postFile<MarkdownPdfBody>('/api/markdown-to-pdf', { json: { markdown_content: markdown, filename } })).blob;

/** A version of a shared report as a PDF; needs only the link, so signed-out viewers can take it too. */
export const sharedCanvasPdf = async (shareId: string, version: number): Promise<Blob> =>
  (await api.getFile<SharePdfQuery>(`/conversation/share/${encode(shareId)}/pdf`, { query: { version } })).blob;

/** Short speech recognition; called only when `speechStatus` says an engine is configured. */
export async function recognise(audio: Blob, language = 'zh'): Promise<string> {
  const form = new FormData();
  form.set('file', audio, 'speech.webm');
  form.set('language', language);
  return (await api.post<SpeechText>('/conversation/api/v2/asr/short', { multipart: form })).text;
}

/** Whether speech recognition is configured; without it the microphone stays hidden. */
/** Today's budget beside what a research run is reckoned to use: the composer asks before a run it may not cover. */
export const researchBudget = () => api.get<ResearchBudget>('/conversation/api/v2/research/budget');

export const speechStatus = () => api.get<SpeechStatus>('/conversation/api/v2/asr/status');

/** Spec §2: page views are recorded as user actions; a failure must never bother the user. */
export function recordPageView(route: string): void {
  if (!browserTokens.get()) return;
  api.post<TaskActionResults, TaskActionBody>('/api/tasks/action', { json: { action_type: 'page_view', target_id: route, target_type: 'page' } }).catch(() => undefined);
}

export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
