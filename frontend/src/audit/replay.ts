import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import { isChunk } from '@scriptorium/domain/protocol/chunks';
import type { PlanStep } from '@scriptorium/domain/protocol/research';
import type { AuditEvent } from '@scriptorium/domain/protocol/http/audit';
import { shownVersion, writingEvent, writingMachine } from '../machines/writing.ts';
import { applyMessage, applyMetadataPosition, emptyConversation, userText, type Conversation } from '../research/conversation.ts';

export type WritingSnapshot = SnapshotFrom<typeof writingMachine>;

/** The research view after the first `folded` events: the chat as the live client folds it, and its canvas machine. */
export interface ReplayView {
  folded: number;
  conversation: Conversation;
  writing: WritingSnapshot;
}

/** The writing machine saves hand edits to its session; a replay never saves, so the stream stands in for the id. */
export const emptyView = (stream: string): ReplayView => ({ folded: 0, conversation: emptyConversation(), writing: initialTransition(writingMachine, { sessionId: stream })[0] });

/**
 * Folds one event with the live client's own functions: `applyMessage` for the chat and the writing
 * machine (through `writingEvent`) for the canvas, so the replay cannot show something the user
 * did not see. The machine steps with xstate's pure `transition`, leaving earlier views intact.
 */
export function foldRow(view: ReplayView, row: AuditEvent): ReplayView {
  const folded = view.folded + 1;
  const message = row.wire;
  if (!message) return { ...view, folded };
  if (message.type === 'metadata_update') return { ...view, folded, conversation: applyMetadataPosition(view.conversation, message) };
  const conversation = applyMessage(view.conversation, message);
  if (conversation === view.conversation) return { ...view, folded };
  const event = writingEvent(message.content);
  return { folded, conversation, writing: event ? transition(writingMachine, view.writing, event)[0] : view.writing };
}

/** Views are kept every this many events, so scrubbing folds at most this many. */
export const CHECKPOINT_EVERY = 256;

/**
 * The rows of one stream as they arrive page by page, with a view kept every `CHECKPOINT_EVERY`
 * events: the view at any position costs one checkpoint and a few hundred folds, whatever the length.
 */
export class Replay {
  readonly rows: AuditEvent[] = [];
  private readonly checkpoints: ReplayView[];

  constructor(stream: string) {
    this.checkpoints = [emptyView(stream)];
  }

  /** Adds a page and folds it into checkpoints; call it page by page to keep the page responsive. */
  append(rows: AuditEvent[]): void {
    let view = this.checkpoints.at(-1)!;
    for (const row of rows) this.rows.push(row);
    while (view.folded + CHECKPOINT_EVERY <= this.rows.length) {
      for (let index = view.folded, end = view.folded + CHECKPOINT_EVERY; index < end; index += 1) view = foldRow(view, this.rows[index]!);
      this.checkpoints.push(view);
    }
  }

  /** The view after the first `count` events. */
  viewAt(count: number): ReplayView {
    const target = Math.max(0, Math.min(count, this.rows.length));
    let view = this.checkpoints[Math.min(Math.floor(target / CHECKPOINT_EVERY), this.checkpoints.length - 1)]!;
    for (let index = view.folded; index < target; index += 1) view = foldRow(view, this.rows[index]!);
    return view;
  }
}

/** The plan as its latest item shows it, with each step's state. */
export function currentPlan(conversation: Conversation): PlanStep[] {
  for (const message of [...conversation.messages].reverse()) {
    for (const item of [...message.contents].reverse()) {
      if (item.content_type === 'plan' || item.content_type === 'mark_in_progress_plan_step') return item.research_plan;
      // The plan as the user edited it, until a step of it starts.
      if (item.content_type === 'plan_review' && item.research_plan) return item.research_plan;
    }
  }
  return [];
}

/** The words a Markdown export of the view uses, in the reader's language. */
export interface MarkdownLabels {
  title: string;
  position: string;
  chat: string;
  user: string;
  assistant: string;
  plan: string;
  canvas: string;
  noCanvas: string;
  status: Record<PlanStep['status'], string>;
}

/** The view at a position as Markdown: the chat's text, the plan with step states and the canvas shown. */
export function viewMarkdown(view: ReplayView, stream: string, row: AuditEvent | undefined, labels: MarkdownLabels): string {
  const lines = [`# ${labels.title}: ${stream}`, '', `${labels.position}: ${row ? `${row.position} (${row.at})` : 0}`, '', `## ${labels.chat}`, ''];
  for (const message of view.conversation.messages) {
    const text =
      message.role === 'user'
        ? userText(message)
        : message.contents.flatMap((item) => (isChunk(item) && item.content_type !== 'writing_content' ? [item.content] : [])).join('');
    lines.push(`**${message.role === 'user' ? labels.user : labels.assistant}** (${message.createdAt}): ${text.trim()}`, '');
  }
  const plan = currentPlan(view.conversation);
  if (plan.length > 0) lines.push(`## ${labels.plan}`, '', ...plan.map((step) => `${step.step}. [${labels.status[step.status]}] ${step.description}`), '');
  const shown = shownVersion(view.writing.context);
  lines.push(`## ${labels.canvas}`, '', shown ? `v${shown.version} ${shown.title}\n\n${shown.content}` : labels.noCanvas, '');
  return lines.join('\n');
}
