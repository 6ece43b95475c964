/** Markdown punctuation after a backslash, as notes saved Markdown the user typed before the editor understood it. */
const ESCAPED = /\\([\\`*_{}[\]()#+\-.!>|~])/g;
/** List, heading or quote markers at the start, as writers and models leave them before an insight. */
const LINE_MARKER = /^\s*(?:(?:#{1,6}|[-*+•]|\d+[.)、]|>)\s+)+/u;

/**
 * A summary or an insight as one line of Markdown to render inline: escaped punctuation read as the
 * Markdown it was typed as and a leading list marker dropped, so a cognition written before the
 * extraction read Markdown (or by a model that numbers its points) shows text, not markup.
 */
export function cardText(text: string): string {
  return text.replace(ESCAPED, '$1').replace(LINE_MARKER, '').trim();
}
