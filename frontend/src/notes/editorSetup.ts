import { baseKeymap, exitCode, setBlockType, toggleMark } from 'prosemirror-commands';
import { history, redo, undo } from 'prosemirror-history';
import { InputRule, inputRules, textblockTypeInputRule, wrappingInputRule } from 'prosemirror-inputrules';
import { keymap } from 'prosemirror-keymap';
import { schema } from 'prosemirror-markdown';
import { liftListItem, sinkListItem, splitListItem } from 'prosemirror-schema-list';
import type { Plugin } from 'prosemirror-state';

/**
 * Typing Markdown where it is written turns into structure, as in most note apps: `# ` a heading,
 * `- ` or `1. ` a list, `> ` a quote, three backticks a code block, `---` a rule.
 */
function markdownInputRules(): Plugin {
  const { nodes } = schema;
  return inputRules({
    rules: [
      textblockTypeInputRule(/^(#{1,6})\s$/, nodes.heading, (match) => ({ level: match[1]!.length })),
      wrappingInputRule(/^\s*>\s$/, nodes.blockquote),
      wrappingInputRule(/^\s*([-+*])\s$/, nodes.bullet_list),
      wrappingInputRule(/^(\d+)\.\s$/, nodes.ordered_list, (match) => ({ order: Number(match[1]) }), (match, node) => node.childCount + (node.attrs.order as number) === Number(match[1])),
      textblockTypeInputRule(/^```$/, nodes.code_block),
      new InputRule(/^---$/, (state, _match, start, end) => state.tr.replaceRangeWith(start - 1, end, nodes.horizontal_rule.create())),
    ],
  });
}

export function notePlugins(save: () => void): Plugin[] {
  const { nodes, marks } = schema;
  return [
    markdownInputRules(),
    history(),
    keymap({
      'Mod-z': undo,
      'Shift-Mod-z': redo,
      'Mod-y': redo,
      'Mod-b': toggleMark(marks.strong),
      'Mod-i': toggleMark(marks.em),
      'Mod-`': toggleMark(marks.code),
      'Mod-s': () => {
        save();
        return true;
      },
      Enter: splitListItem(nodes.list_item),
      'Mod-[': liftListItem(nodes.list_item),
      'Mod-]': sinkListItem(nodes.list_item),
      Tab: sinkListItem(nodes.list_item),
      'Shift-Tab': liftListItem(nodes.list_item),
      'Shift-Ctrl-0': setBlockType(nodes.paragraph),
      'Mod-Enter': exitCode,
    }),
    keymap(baseKeymap),
  ];
}
