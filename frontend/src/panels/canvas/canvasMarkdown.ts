import { defaultMarkdownParser, defaultMarkdownSerializer, MarkdownSerializer } from 'prosemirror-markdown';
import type { Node } from 'prosemirror-model';

const CITATION = /(\[\d{1,3}\])/;

/**
 * Markdown as the agents write it, so a saved hand edit differs from the version before only where
 * the user typed: citation markers stay `[1]` (not `\[1\]`, which the targeted-edit agent could no
 * longer find) and bullets stay `-`.
 */
export const canvasSerializer = new MarkdownSerializer(
  {
    ...defaultMarkdownSerializer.nodes,
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

export const parseCanvas = (markdown: string): Node => defaultMarkdownParser.parse(markdown);

export const serializeCanvas = (doc: Node): string => canvasSerializer.serialize(doc);

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
