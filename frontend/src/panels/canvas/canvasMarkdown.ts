import { defaultMarkdownParser, defaultMarkdownSerializer, MarkdownSerializer } from 'prosemirror-markdown';
import { Fragment, type Node } from 'prosemirror-model';

const CITATION = /(\[\d{1,3}\])/;

/**
 * Markdown folds any run of blank lines into one break, so an empty paragraph the user typed would
 * vanish on save. It is written as a line holding a no-break space, which every Markdown reader
 * shows as an empty paragraph, and read back as an empty paragraph.
 */
const BLANK_LINE = '\u00a0';

/**
 * Markdown as the agents write it, so a saved hand edit differs from the version before only where
 * the user typed: citation markers stay `[1]` (not `\[1\]`, which the targeted-edit agent could no
 * longer find) and bullets stay `-`.
 */
export const canvasSerializer = new MarkdownSerializer(
  {
    ...defaultMarkdownSerializer.nodes,
    paragraph(state, node) {
      if (node.childCount === 0) state.write(BLANK_LINE);
      else state.renderInline(node);
      state.closeBlock(node);
    },
    bullet_list(state, node) {
      state.renderList(node, '  ', () => '- ');
    },
    text(state, node) {
      const autolink = (state as unknown as { inAutolink?: boolean }).inAutolink === true;
      for (const part of (node.text ?? '').split(CITATION)) if (part !== '') state.text(part, !autolink && !CITATION.test(part));
    },
  },
  defaultMarkdownSerializer.marks,
);

function emptyBlankLines(node: Node): Node {
  if (node.type.name === 'paragraph') return node.textContent === BLANK_LINE ? node.type.create(node.attrs) : node;
  if (node.isTextblock || node.isLeaf) return node;
  const children: Node[] = [];
  node.forEach((child) => children.push(emptyBlankLines(child)));
  return node.copy(Fragment.from(children));
}

export const parseCanvas = (markdown: string): Node => emptyBlankLines(defaultMarkdownParser.parse(markdown));

/** Empty paragraphs at the very end are the editor's (a new document has one), not lines the user kept. */
function withoutTrailingBlankLines(doc: Node): Node {
  const children: Node[] = [];
  doc.forEach((child) => children.push(child));
  while (children.length > 0 && children.at(-1)!.type.name === 'paragraph' && children.at(-1)!.childCount === 0) children.pop();
  return children.length === doc.childCount ? doc : doc.copy(Fragment.from(children));
}

export const serializeCanvas = (doc: Node): string => canvasSerializer.serialize(withoutTrailingBlankLines(doc));

/**
 * The text of a selection as it is written in the version's markdown. The server finds the snippet
 * there verbatim, so a selection over a link or bold text is sent in its markdown form; plain text
 * is tried first because it is what the user saw.
 */
export function snippetIn(markdown: string, doc: Node, from: number, to: number): string {
  const plain = doc.textBetween(from, to, '\n\n');
  if (markdown.includes(plain)) return plain;
  const written = canvasSerializer.serialize(doc.cut(from, to)).trim();
  return written !== '' && markdown.includes(written) ? written : plain;
}

/** Start of the `nth` (0-based) occurrence of `needle` in `text`, or -1. */
function nthIndex(text: string, needle: string, nth: number): number {
  let at = -1;
  for (let seen = 0; seen <= nth; seen++) {
    at = text.indexOf(needle, at + 1);
    if (at === -1) return -1;
  }
  return at;
}

/**
 * The selection's snippet and where it starts in the markdown. Equal text may occur more than once
 * in a report: the occurrence counts in the shown text and in the markdown run in the same order, so
 * the selection's count before it picks the one the user meant.
 */
export function snippetAt(markdown: string, doc: Node, from: number, to: number): { snippet: string; offset: number } {
  const snippet = snippetIn(markdown, doc, from, to);
  const plain = doc.textBetween(from, to, '\n\n');
  const before = doc.textBetween(0, from, '\n\n');
  let nth = 0;
  for (let at = (before + plain).indexOf(plain); at !== -1 && at < before.length; at = (before + plain).indexOf(plain, at + 1)) nth++;
  const offset = nthIndex(markdown, snippet, nth);
  return { snippet, offset: offset === -1 ? markdown.indexOf(snippet) : offset };
}
