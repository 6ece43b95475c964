/**
 * The report's outline as the reader sees it: the title and section headings the model wrote with
 * its plan, made fit to stand as Markdown headings, or the rules' when it wrote none.
 */
import { clip } from './text.ts';

const MAX_TITLE = 80;
const MAX_HEADING = 40;

/** One line of plain words: no markup, quotes or closing punctuation a heading does not take. */
function headingText(written: string | undefined, max: number): string {
  const line = (written ?? '').split(/\r?\n/).map((candidate) => candidate.trim()).find(Boolean) ?? '';
  const plain = line
    .replace(/^#+\s*|[*_`]/g, '')
    .replace(/^(?:标题|小标题|Title|Heading)[:：]\s*/i, '')
    .replace(/^["'“”《「]+|["'“”》」。.!！:：;；,，]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return plain ? clip(plain, max) : '';
}

/** The model's heading for a step, or `fallback` (the rules' heading, else the step itself) when it gave none usable. */
export const sectionHeading = (written: string | undefined, fallback: string): string => headingText(written, MAX_HEADING) || fallback;

/** The model's title for the report (an English one starting with a capital), or null when it gave none usable and the rules' title stands. */
export const reportTitle = (written: string | undefined): string | null => headingText(written, MAX_TITLE).replace(/^[a-z]/, (first) => first.toUpperCase()) || null;
