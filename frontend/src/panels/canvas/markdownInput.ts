import { toggleMark } from 'prosemirror-commands';
import { InputRule, inputRules, textblockTypeInputRule, undoInputRule, wrappingInputRule } from 'prosemirror-inputrules';
import { keymap } from 'prosemirror-keymap';
import { schema } from 'prosemirror-markdown';
import type { Attrs, MarkType } from 'prosemirror-model';
import type { Plugin } from 'prosemirror-state';

/**
 * Text closed by a Markdown delimiter becomes that mark as the closing delimiter is typed:
 * `(before)(opener)(text)(closer)`. The character before the opener is matched (and kept) so that a
 * delimiter inside a word or an escaped one (`\*`) does not open a mark.
 */
function markRule(pattern: RegExp, type: MarkType, attrs: (match: RegExpMatchArray) => Attrs | null = () => null): InputRule {
  return new InputRule(
    pattern,
    (state, match, start, end) => {
      const text = match[2]!;
      const from = start + match[1]!.length;
      const mark = type.create(attrs(match));
      const tr = state.tr.replaceWith(from, end, schema.text(text, mark.addToSet(state.doc.resolve(from).marks())));
      // What is typed next is plain again, as in every editor that does this.
      return tr.removeStoredMark(type);
    },
    { inCodeMark: false },
  );
}

/** A run that neither starts nor ends with a space, the CommonMark rule for emphasis. */
const inner = (delimiter: string) => `([^${delimiter}\\s](?:[^${delimiter}]*[^${delimiter}\\s])?)`;

/**
 * Typing Markdown where it is written turns into structure, as in most note apps: `# ` a heading,
 * `- ` or `1. ` a list, `> ` a quote, three backticks a code block, `---` a rule, and `**bold**`,
 * `*italic*`, `` `code` `` and `[text](url)` their marks. Both editors (notes and the report canvas)
 * save Markdown, so what the shortcut makes is what the saved text says.
 */
export function markdownInputRules(): Plugin {
  const { nodes, marks } = schema;
  return inputRules({
    rules: [
      textblockTypeInputRule(/^(#{1,6})\s$/, nodes.heading, (match) => ({ level: match[1]!.length })),
      wrappingInputRule(/^\s*>\s$/, nodes.blockquote),
      wrappingInputRule(/^\s*([-+*])\s$/, nodes.bullet_list),
      wrappingInputRule(/^(\d+)\.\s$/, nodes.ordered_list, (match) => ({ order: Number(match[1]) }), (match, node) => node.childCount + (node.attrs.order as number) === Number(match[1])),
      textblockTypeInputRule(/^```$/, nodes.code_block),
      new InputRule(/^---$/, (state, _match, start, end) => state.tr.replaceRangeWith(start - 1, end, nodes.horizontal_rule.create())),
      markRule(new RegExp(`(^|[^*\\\\])\\*\\*${inner('*')}\\*\\*$`), marks.strong),
      markRule(new RegExp(`(^|[^_\\\\\\p{L}\\p{N}])__${inner('_')}__$`, 'u'), marks.strong),
      markRule(new RegExp(`(^|[^*\\\\])\\*${inner('*')}\\*$`), marks.em),
      markRule(new RegExp(`(^|[^_\\\\\\p{L}\\p{N}])_${inner('_')}_$`, 'u'), marks.em),
      markRule(/(^|[^`\\])`([^`]+)`$/, marks.code),
      markRule(/(^|[^!\\])\[([^\]]+)\]\(([^()\s]+)\)$/, marks.link, (match) => ({ href: match[3]!, title: null })),
    ],
  });
}

/** The input rules, Backspace right after one to take it back, and the usual mark shortcuts. */
export function markdownEditing(): Plugin[] {
  const { marks } = schema;
  return [markdownInputRules(), keymap({ Backspace: undoInputRule, 'Mod-b': toggleMark(marks.strong), 'Mod-i': toggleMark(marks.em), 'Mod-`': toggleMark(marks.code) })];
}
