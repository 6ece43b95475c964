/**
 * A targeted edit's citations checked with the research's own check: the sentences the edit
 * touched, against the report's sources as the session stored them; every other sentence keeps the
 * checks of the version it edits, moved by what the edit added or took away.
 */
import type { CitationCheck } from '@scriptorium/domain/protocol/research';
import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import { sentencesAround } from '../deep_cognition/citations.ts';
import { checkText } from '../deep_cognition/checkCitations.ts';
import type { Run } from '../deep_cognition/run.ts';
import { bookOf, parseReport } from '../deep_cognition/sources.ts';
import { notesOf, versionChecks } from '../deep_cognition/trace.ts';

export interface CheckedEdit {
  /** The replaced span of the version: the selection, grown only where checking changed text beyond it. */
  offset: number;
  snippet: string;
  edited: string;
  citations: CitationCheck[];
  /** What the check did to the edit's sentences, and whether it cost a model call. */
  tally: { checked: number; repaired: number; marked: number; removed: number };
  judged: boolean;
}

/** The edit of `snippet` at `at` of version `current` into `edited`, as the new version will hold it, checked. */
export async function checkedEdit(run: Run, events: RecordedEvent[], current: { version: number; content: string }, at: number, snippet: string, edited: string): Promise<CheckedEdit> {
  const { content } = current;
  const full = content.slice(0, at) + edited + content.slice(at + snippet.length);
  const touched = sentencesAround(full, at, at + edited.length);
  const sources = bookOf(parseReport(content), notesOf(events));
  const checked = await checkText(run, full.slice(touched.start, touched.end), sources);
  const final = full.slice(0, touched.start) + checked.text + full.slice(touched.end);
  // Offsets in the version it edits: before the touched sentences they stand; after them they move.
  const grown = edited.length - snippet.length;
  const after = touched.end - grown;
  const moved = final.length - content.length;
  const before = versionChecks(events, current.version);
  const citations = [
    ...before.filter((check) => check.offset < touched.start),
    ...checked.checks.map((check) => ({ ...check, offset: check.offset + touched.start })),
    ...before.filter((check) => check.offset >= after).map((check) => ({ ...check, offset: check.offset + moved })),
  ];
  let prefix = 0;
  while (prefix < at && content[prefix] === final[prefix]) prefix++;
  const tail = content.length - at - snippet.length;
  let suffix = 0;
  while (suffix < tail && suffix < final.length - prefix && content[content.length - 1 - suffix] === final[final.length - 1 - suffix]) suffix++;
  return { offset: prefix, snippet: content.slice(prefix, content.length - suffix), edited: final.slice(prefix, final.length - suffix), citations, tally: checked.tally, judged: checked.judged };
}
