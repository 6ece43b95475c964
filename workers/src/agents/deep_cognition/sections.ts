/**
 * Writing a report section by section so that nothing written is written twice: each finished
 * section is recorded (`SectionWritten`), a job that goes on rebuilds the report from those records
 * and continues the section it was in from the text it had, and a section whose stream is cut is
 * rolled back to its start and written again.
 */
import type { ChatMessage, ContextDocument } from '@scriptorium/infra/model/port';
import type { ModelRole } from '@scriptorium/infra/model/profile';
import { checkpoint, command, SECTION_TRIES, streamModel, worthRetrying, type Draft, type Run } from './run.ts';
import type { Language } from './text.ts';
import { checkCitations } from './checkCitations.ts';
import type { SourceBook } from './sources.ts';

export interface SectionPlan {
  /** Its place in the plan; the conclusion's is the number of steps. */
  index: number;
  heading: string;
  messages: ChatMessage[];
  context: ContextDocument[];
  /** The summary heading the report is the `summarising` model's; the sections are the `writing` model's. */
  role: Extract<ModelRole, 'summarising' | 'writing'>;
  /** What the section's citations are checked against. */
  sources: SourceBook;
}

/** A section's heading as the report shows it. */
export const headingLine = (heading: string) => `## ${heading}\n\n`;

/** Finished sections as they stand in the report, each followed by its blank line. */
export const sectionBlock = (heading: string, text: string) => `${headingLine(heading)}${text}\n\n`;

/**
 * Where a report continues: the text up to the first section not recorded as finished (its heading
 * included), and what of that section the last version already had. `previous` is the text of that
 * version; when it does not start with the rebuilt text (a different header, a rolled-back end),
 * the section starts afresh.
 */
export function continuation(header: string, headings: string[], finished: ReadonlyMap<number, { text: string }>, previous: string): { next: number; prefix: string; partial: string } {
  let prefix = header;
  let next = 0;
  while (next < headings.length && finished.has(next)) {
    prefix += sectionBlock(headings[next]!, finished.get(next)!.text);
    next++;
  }
  if (next === headings.length) return { next, prefix, partial: '' };
  prefix += headingLine(headings[next]!);
  const partial = previous.startsWith(prefix) ? previous.slice(prefix.length) : '';
  return { next, prefix, partial };
}

/** A link the report shows, `[[n]](url)`, as the model writes it, `[n]`. */
const unlinked = (text: string) => text.replace(/\[\[(\d+)\]\]\([^)]*\)/g, '[$1]');

const CONTINUE = {
  zh: '你的回答在上面这段之后中断了。请紧接着最后一个字继续写完这一节，不要重复已经写出的内容，也不要重写标题。',
  en: 'Your answer was cut off after the text above. Continue this section from its very last word; do not repeat what is written or restate the heading.',
} as const;

const EMPTY_NOTE = { zh: '> 注：模型没有为本节写出内容。', en: '> Note: the model wrote nothing for this section.' } as const;
const noteFor = (kind: 'empty' | 'capped', heading: string, language: Language) =>
  kind === 'empty'
    ? language === 'zh' ? `“${heading}”一节模型没有写出内容。` : `The model wrote nothing for the section "${heading}".`
    : language === 'zh' ? `“${heading}”一节达到了模型的输出上限，可能不完整。` : `The section "${heading}" reached the model's output limit and may be incomplete.`;

/**
 * Streams one section into the draft, whose text already ends with the section's heading and
 * `partial` (what an earlier job wrote of it). A stream cut midway is rolled back to where this
 * call began and tried again, up to `SECTION_TRIES` times; a failure that another try cannot help,
 * or the last one, goes on to the caller with the draft as it stands. An empty section or one cut
 * by its output cap is said in the chat and noted in the report. Recorded once written.
 */
export async function writeSection(run: Run, draft: Draft, section: SectionPlan, partial: string): Promise<void> {
  const start = draft.content.length - partial.length;
  const from = draft.content.length;
  const messages: ChatMessage[] = partial.trim()
    ? [...section.messages, { role: 'assistant', content: unlinked(partial) }, { role: 'user', content: CONTINUE[run.language] }]
    : section.messages;
  for (let attempt = 1; ; attempt++) {
    try {
      const streamed = await streamModel(run, section.role, { messages, context: section.context }, (text) => draft.cited(text));
      draft.endCited();
      if (streamed.maxTokens > 0 && streamed.completionTokens >= streamed.maxTokens) await degraded(run, 'capped', section.heading);
      break;
    } catch (error) {
      checkpoint(run);
      if (!worthRetrying(error) || attempt === SECTION_TRIES) throw error;
      run.deps.log.warn({ err: error, replyId: run.data.replyId, section: section.index, attempt }, 'a section stream was cut; writing it again');
      if (draft.content.length > from) await draft.rollback(from);
      await run.writer.progress({ code: 'research.sectionRetry', params: { section: section.heading } });
    }
  }
  if (!draft.content.slice(start).trim()) {
    draft.plain(EMPTY_NOTE[run.language]);
    await degraded(run, 'empty', section.heading);
  }
  await recordSection(run, draft, section.index, section.heading, start, section.sources);
}

/** Records the section that starts at `start` of the draft as written, its citations checked against `sources` first. */
export async function recordSection(run: Run, draft: Draft, index: number, heading: string, start: number, sources: SourceBook): Promise<void> {
  draft.endCited();
  await checkCitations(run, draft, sources, index, heading, start);
  await command(run, `section:${index}`, { type: 'RecordSection', data: { messageId: run.data.replyId, index, heading, text: draft.content.slice(start) } });
}

async function degraded(run: Run, kind: 'empty' | 'capped', heading: string): Promise<void> {
  await run.writer.progress({ code: kind === 'empty' ? 'research.sectionEmpty' : 'research.sectionCapped', params: { section: heading } });
  run.notes.push(noteFor(kind, heading, run.language));
}

/** The report's note on what went less well than asked, before its sources; nothing when all went as asked. */
export function notesBlock(notes: readonly string[], language: Language): string {
  if (notes.length === 0) return '';
  return `## ${language === 'zh' ? '说明' : 'Notes'}\n\n${notes.map((note) => `- ${note}\n`).join('')}\n`;
}
