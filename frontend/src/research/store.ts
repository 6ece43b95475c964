import { useSyncExternalStore } from 'react';
import { createActor, fromPromise, type Actor } from 'xstate';
import type { ClarificationAnswer } from '@scriptorium/backend/protocol/research';
import type { ServerMessage, WireAgent, WireContent } from '@scriptorium/backend/protocol/ws';
import { toApiError } from '../api/client.ts';
import { research, uploadFile, type CanvasDto, type CollaborationMode, type LayoutPreset, type SessionDto, type CloudChat } from '../api/research.ts';
import { clientId, socketClient } from '../api/socket.ts';
import { i18n } from '../i18n/index.ts';
import { writingMachine, type CanvasSave, type SavedCanvas, type WritingEvent } from '../machines/writing.ts';
import { applyMessage, applyMetadataPosition, applySubscribed, emptyConversation, fromHistory, type Conversation, type History } from './conversation.ts';
import { closeTarget, renamed, startupCandidates } from './sessions.ts';

/** Spec §9: the pause after creating a session before its layout and stream are set up. */
export const NEW_SESSION_WAIT_MS = 500;
export const CLOUD_HISTORY_PAGE = 100;
export const CURRENT_CONVERSATION_KEY = 'current_conversation_id';
export const LOGIN_REQUIRED = '需要登录';

export interface OpenArtifact {
  filename: string;
  content: string;
  filetype: 'html' | 'markdown';
  /** The reply it came with, which is what a share of it points at. */
  messageId?: string;
}

export interface ResearchSession {
  id: string;
  name: string;
  title: string | null;
  createdAt: string;
  mode: CollaborationMode;
  searchEnabled: boolean;
  layoutPreset: LayoutPreset;
  restoring: boolean;
  readOnly: boolean;
  conversation: Conversation;
  writing: Actor<typeof writingMachine>;
  /** Stage 2 (spec §2) starts when an editor or an artifact is shown. */
  panel: 'canvas' | 'artifact' | null;
  artifact: OpenArtifact | null;
}

export interface ResearchState {
  sessions: ResearchSession[];
  activeId: string | null;
  cloud: { status: 'idle' | 'loading' | 'ready' | 'error'; chats: CloudChat[] };
  offline: boolean | null;
  /** The last failure worth telling the user about (send, upload…); cleared on the next action. */
  error: string | null;
  started: boolean;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const agentFor = (mode: CollaborationMode): WireAgent => (mode === 0 ? 'poe_llm' : 'deep_cognition');

/** Which writing events a stream item means for the canvas. */
function writingEvent(content: WireContent): WritingEvent | null {
  const artifact = typeof content.artifact_id === 'string' ? { artifact_id: content.artifact_id } : {};
  switch (content.content_type) {
    case 'writing_start':
      return { type: 'writing.started', ...artifact, version: Number(content.version ?? 0), title: String(content.title ?? '') };
    case 'writing_content':
      return { type: 'writing.chunk', ...artifact, content: String(content.content ?? '') };
    case 'writing_end':
      return {
        type: 'writing.ended',
        ...artifact,
        version: Number(content.version ?? 0),
        interrupted: content.interrupted === true,
        ...(typeof content.saved === 'boolean' && { saved: content.saved }),
        ...(typeof content.title === 'string' && { title: content.title }),
        timestamp: content.timestamp,
      };
    case 'targeted_edit_result':
      return { type: 'edit.applied', version: Number(content.version ?? 0), content: String(content.full_content ?? ''), timestamp: content.timestamp };
    case 'canvas_saved':
      return {
        type: 'edit.applied',
        version: Number(content.version ?? 0),
        content: String(content.content ?? ''),
        ...(typeof content.title === 'string' && { title: content.title }),
        timestamp: content.timestamp,
      };
    default:
      return null;
  }
}

class ResearchStore {
  private state: ResearchState = { sessions: [], activeId: null, cloud: { status: 'idle', chats: [] }, offline: null, error: null, started: false };
  private readonly listeners = new Set<() => void>();
  private readonly unregister = new Map<string, () => void>();

  constructor() {
    window.addEventListener('metadata_update', (event) => {
      const { session_id, updated_fields } = (event as CustomEvent<Extract<ServerMessage, { type: 'metadata_update' }>>).detail;
      this.patch(session_id, {
        ...(updated_fields.name !== undefined && { name: updated_fields.name }),
        ...(updated_fields.title !== undefined && { title: updated_fields.title }),
        ...(updated_fields.collaboration_mode !== undefined && { mode: updated_fields.collaboration_mode }),
        ...(updated_fields.search_enabled !== undefined && { searchEnabled: updated_fields.search_enabled }),
      });
      if (updated_fields.title !== undefined || updated_fields.name !== undefined) {
        this.set({ cloud: { ...this.state.cloud, chats: this.state.cloud.chats.map((chat) => (chat.id === session_id ? { ...chat, title: updated_fields.title ?? updated_fields.name ?? chat.title } : chat)) } });
      }
    });
  }

  getSnapshot = (): ResearchState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  active(): ResearchSession | null {
    return this.state.sessions.find((session) => session.id === this.state.activeId) ?? null;
  }

  /** Startup on /research when signed in (spec §4). Runs once per page. */
  async start(urlId: string | null): Promise<void> {
    if (this.state.started) return;
    this.set({ started: true });
    void this.loadCloud();
    void research
      .models()
      .then((models) => this.set({ offline: models.offline }))
      .catch(() => undefined);
    const localId = localStorage.getItem(CURRENT_CONVERSATION_KEY);
    const candidates = startupCandidates({
      urlId,
      localId,
      newestChat: async () => (await research.myChats(0, 1)).chats[0] ?? null,
      now: new Date(),
    });
    for await (const candidate of candidates) {
      if (candidate.source === 'local') localStorage.removeItem(CURRENT_CONVERSATION_KEY);
      try {
        await this.loadRemote(candidate.id, true);
        return;
      } catch (error) {
        console.warn(`could not restore session ${candidate.id}`, error);
      }
    }
    await this.create({ activate: true, preset: 'home-welcome' });
  }

  /** Signing out forgets every open session; the next sign-in restores afresh. */
  reset(): void {
    for (const session of this.state.sessions) this.drop(session.id);
    socketClient.disconnect();
    this.state = { sessions: [], activeId: null, cloud: { status: 'idle', chats: [] }, offline: null, error: null, started: false };
    this.emit();
  }

  async loadCloud(): Promise<void> {
    this.set({ cloud: { ...this.state.cloud, status: 'loading' } });
    try {
      const { chats } = await research.myChats(0, CLOUD_HISTORY_PAGE);
      this.set({ cloud: { status: 'ready', chats: [...chats].sort((a, b) => b.created_at.localeCompare(a.created_at)) } });
    } catch {
      this.set({ cloud: { ...this.state.cloud, status: 'error' } });
    }
  }

  async create({ activate, preset }: { activate: boolean; preset: LayoutPreset }): Promise<ResearchSession> {
    const dto = await research.createSession({ client_id: clientId(), name: i18n.t('session.defaultName'), mode: 1, search_enabled: true, layout_preset: preset });
    await wait(NEW_SESSION_WAIT_MS);
    const session = this.open(dto, false);
    this.subscribeSession(session.id);
    if (activate) this.switchTo(session.id);
    void this.loadCloud();
    return session;
  }

  /** Restores a cloud session: history first, then live from the position the history reached. */
  async loadRemote(id: string, activate: boolean): Promise<void> {
    const existing = this.find(id);
    if (existing) {
      if (activate) this.switchTo(id);
      return;
    }
    const placeholder = this.open({ session_id: id, name: '', title: null, created_at: new Date().toISOString(), collaboration_mode: 1, search_enabled: true, layout_preset: 'chat-interface-only', status: 'active', processing: false, activity: 'idle', message_count: 0 }, false, true);
    // A restoring session cannot be selected by the user, but startup may show it while it loads.
    if (activate) this.set({ activeId: placeholder.id });
    try {
      const [dto, history] = await Promise.all([research.session(id), research.messages(id)]);
      this.hydrate(dto, history, await research.canvas(id).catch(() => null));
      this.subscribeSession(id);
      if (activate && this.state.activeId === id) localStorage.setItem(CURRENT_CONVERSATION_KEY, id);
    } catch (error) {
      this.remove(id);
      throw error;
    }
  }

  /** A shared conversation: read-only, never subscribed, sending disabled. */
  openShared(dto: SessionDto, history: History, canvas: CanvasDto | null): ResearchSession {
    const session = this.open(dto, true);
    this.hydrate(dto, history, canvas);
    this.set({ activeId: session.id });
    return this.find(session.id)!;
  }

  closeShared(id: string): void {
    this.remove(id);
  }

  switchTo(id: string): void {
    const session = this.find(id);
    if (!session || session.restoring || this.state.activeId === id) return;
    if (!session.readOnly) localStorage.setItem(CURRENT_CONVERSATION_KEY, id);
    this.set({ activeId: id, error: null });
  }

  async rename(id: string, input: string): Promise<void> {
    const session = this.find(id);
    const name = session && renamed(session.name, input);
    if (!session || !name) return;
    this.patch(id, { name });
    try {
      await research.rename(id, name);
    } catch (error) {
      this.patch(id, { name: session.name });
      this.fail(error);
    }
  }

  async close(id: string): Promise<void> {
    const ids = this.state.sessions.map((session) => session.id);
    if (ids.length <= 1) return;
    const target = closeTarget(ids, id, this.state.activeId);
    this.remove(id);
    if (target.kind === 'switch') this.switchTo(target.id);
    else if (target.kind === 'create') await this.create({ activate: true, preset: 'home-welcome' });
  }

  send(text: string): boolean {
    const session = this.active();
    const content = text.trim();
    if (!session || session.readOnly || content === '') return false;
    try {
      socketClient.send(session.id, agentFor(session.mode), { content_type: 'user_input', content });
      this.set({ error: null });
      if (session.layoutPreset === 'home-welcome') this.patch(session.id, { layoutPreset: 'chat-interface-only' });
      return true;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  async setMode(mode: CollaborationMode): Promise<void> {
    const session = this.active();
    if (!session) return;
    this.patch(session.id, { mode });
    await research.setMode(session.id, mode).catch((error: unknown) => {
      this.patch(session.id, { mode: session.mode });
      this.fail(error);
    });
  }

  async toggleSearch(): Promise<void> {
    const session = this.active();
    if (!session) return;
    const enabled = !session.searchEnabled;
    this.patch(session.id, { searchEnabled: enabled });
    await research.setSearch(session.id, enabled).catch((error: unknown) => {
      this.patch(session.id, { searchEnabled: session.searchEnabled });
      this.fail(error);
    });
  }

  async pause(): Promise<void> {
    const session = this.active();
    if (!session) return;
    try {
      socketClient.send(session.id, agentFor(session.mode), { content_type: 'pause' });
    } catch {
      await research.pause(session.id).catch((error: unknown) => this.fail(error));
    }
  }

  async answerClarification(answers: ClarificationAnswer[]): Promise<void> {
    const session = this.active();
    if (!session) return;
    try {
      socketClient.send(session.id, 'deep_cognition', { content_type: 'clarification_answer', answers });
    } catch {
      await research.answerClarification(session.id, answers).catch((error: unknown) => this.fail(error));
    }
  }

  async feedback(option: 'continue' | 'satisfied' | 'manual_feedback', text?: string): Promise<void> {
    const session = this.active();
    if (!session) return;
    try {
      socketClient.send(session.id, 'deep_cognition', { content_type: 'feedback_response', option, ...(text !== undefined && { text }) });
    } catch {
      await research.feedback(session.id, option, text).catch((error: unknown) => this.fail(error));
    }
  }

  /** Spec §5: blank instruction or blank snippet is not sent. Resolves with the request id (the reply's message id), or null. */
  async targetedEdit(text: string, snippet: string): Promise<string | null> {
    const session = this.active();
    if (!session || text.trim() === '' || snippet.trim() === '') return null;
    const request = { request_id: `edit-${crypto.randomUUID().slice(0, 12)}`, text: text.trim(), snippet };
    try {
      socketClient.send(session.id, 'targeted_edit', { content_type: 'targeted_edit', ...request });
    } catch {
      try {
        await research.editRequest(session.id, request);
      } catch (error) {
        this.fail(error);
        return null;
      }
    }
    return request.request_id;
  }

  async upload(file: File): Promise<boolean> {
    const session = this.active();
    if (!session) return false;
    try {
      await uploadFile(session.id, file, file.type || 'application/octet-stream');
      return true;
    } catch (error) {
      console.warn('upload failed', error);
      this.set({ error: '上传失败' });
      return false;
    }
  }

  showArtifact(artifact: OpenArtifact | null): void {
    const session = this.active();
    if (session) this.patch(session.id, { artifact, panel: artifact ? 'artifact' : this.hasCanvas(session) ? 'canvas' : null });
  }

  showCanvas(open: boolean): void {
    const session = this.active();
    if (session) this.patch(session.id, { panel: open ? 'canvas' : null });
  }

  setLayoutPreset(preset: LayoutPreset): void {
    const session = this.active();
    if (session) this.patch(session.id, { layoutPreset: preset });
  }

  clearError(): void {
    if (this.state.error !== null) this.set({ error: null });
  }

  fail(error: unknown): void {
    this.set({ error: error instanceof Error && !('userMessage' in error) ? error.message : toApiError(error).userMessage });
  }

  private hasCanvas(session: ResearchSession): boolean {
    const { context } = session.writing.getSnapshot();
    return context.versions.length > 0 || context.draft !== null;
  }

  private hydrate(dto: SessionDto, history: History, canvas: CanvasDto | null): void {
    const session = this.find(dto.session_id);
    if (!session) return;
    const conversation = fromHistory(history, dto.processing);
    for (const message of conversation.messages) for (const content of message.contents) this.feedWriting(session, content);
    if (canvas && canvas.versions.length > 0) session.writing.send({ type: 'canvas.loaded', versions: canvas.versions, currentVersion: canvas.currentVersion });
    this.patch(dto.session_id, {
      ...this.fields(dto),
      restoring: false,
      conversation,
      panel: this.hasCanvas(session) ? 'canvas' : null,
    });
  }

  private fields(dto: SessionDto) {
    return {
      name: dto.name,
      title: dto.title,
      createdAt: dto.created_at,
      mode: dto.collaboration_mode,
      searchEnabled: dto.search_enabled,
      layoutPreset: dto.message_count > 0 ? ('chat-interface-only' as const) : dto.layout_preset,
    };
  }

  private open(dto: SessionDto, readOnly: boolean, restoring = false): ResearchSession {
    const session: ResearchSession = {
      id: dto.session_id,
      ...this.fields(dto),
      restoring,
      readOnly,
      conversation: emptyConversation(),
      writing: createActor(
        writingMachine.provide({
          actors: {
            saveCanvas: fromPromise<SavedCanvas, CanvasSave>(({ input }) => research.saveCanvas(dto.session_id, { content: input.content, from_version: input.fromVersion })),
          },
        }),
      ).start(),
      panel: null,
      artifact: null,
    };
    this.set({ sessions: [...this.state.sessions.filter((candidate) => candidate.id !== session.id), session] });
    return session;
  }

  private subscribeSession(id: string): void {
    this.unregister.get(id)?.();
    const off = socketClient.register(id, {
      position: () => this.find(id)?.conversation.position ?? 0,
      onMessage: (message) => this.receive(id, message),
    });
    this.unregister.set(id, off);
    if (socketClient.status() !== 'connected') socketClient.connect().catch(() => undefined);
  }

  private receive(id: string, message: ServerMessage): void {
    const session = this.find(id);
    if (!session) return;
    if (message.type === 'message') {
      const next = applyMessage(session.conversation, message);
      if (next === session.conversation) return;
      this.feedWriting(session, message.content);
      const startsCanvas = message.content.content_type === 'writing_start' && session.panel !== 'artifact';
      const artifact =
        message.content.content_type === 'artifact_complete'
          ? { filename: String(message.content.filename ?? ''), content: String(message.content.content ?? ''), filetype: message.content.filetype === 'html' ? ('html' as const) : ('markdown' as const) }
          : null;
      this.patch(id, {
        conversation: next,
        ...(startsCanvas && { panel: 'canvas' as const }),
        ...(artifact && { artifact, panel: 'artifact' as const }),
        ...(session.layoutPreset === 'home-welcome' && { layoutPreset: 'chat-interface-only' as const }),
      });
    } else if (message.type === 'subscribed') {
      this.patch(id, { conversation: applySubscribed(session.conversation, message) });
    } else if (message.type === 'metadata_update') {
      this.patch(id, { conversation: applyMetadataPosition(session.conversation, message) });
    }
  }

  private feedWriting(session: ResearchSession, content: WireContent): void {
    const event = writingEvent(content);
    if (event) session.writing.send(event);
  }

  private remove(id: string): void {
    this.drop(id);
    const sessions = this.state.sessions.filter((session) => session.id !== id);
    this.set({ sessions, activeId: this.state.activeId === id ? null : this.state.activeId });
  }

  private drop(id: string): void {
    this.unregister.get(id)?.();
    this.unregister.delete(id);
    this.find(id)?.writing.stop();
  }

  private find(id: string): ResearchSession | undefined {
    return this.state.sessions.find((session) => session.id === id);
  }

  private patch(id: string, changes: Partial<ResearchSession>): void {
    if (!this.find(id)) return;
    this.set({ sessions: this.state.sessions.map((session) => (session.id === id ? { ...session, ...changes } : session)) });
  }

  private set(changes: Partial<ResearchState>): void {
    this.state = { ...this.state, ...changes };
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

export const researchStore = new ResearchStore();

export const useResearch = (): ResearchState => useSyncExternalStore(researchStore.subscribe, researchStore.getSnapshot);

export const useActiveSession = (): ResearchSession | null => {
  const state = useResearch();
  return state.sessions.find((session) => session.id === state.activeId) ?? null;
};
