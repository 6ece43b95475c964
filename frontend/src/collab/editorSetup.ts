import { baseKeymap, exitCode, setBlockType, toggleMark, wrapIn } from 'prosemirror-commands';
import { history, redo, undo } from 'prosemirror-history';
import { InputRule, inputRules, textblockTypeInputRule, wrappingInputRule } from 'prosemirror-inputrules';
import { keymap } from 'prosemirror-keymap';
import { liftListItem, sinkListItem, splitListItem, wrapInList } from 'prosemirror-schema-list';
import type { Command, Plugin } from 'prosemirror-state';
import { collabSchema } from '@scriptorium/domain/protocol/collabSchema';

const { nodes, marks } = collabSchema;

/** Typing Markdown where it is written turns into structure, as in the note editor. */
function markdownInputRules(): Plugin {
  return inputRules({
    rules: [
      textblockTypeInputRule(/^(#{1,3})\s$/, nodes.heading!, (match) => ({ level: match[1]!.length })),
      wrappingInputRule(/^\s*>\s$/, nodes.blockquote!),
      wrappingInputRule(/^\s*([-+*])\s$/, nodes.bullet_list!),
      wrappingInputRule(/^(\d+)\.\s$/, nodes.ordered_list!, (match) => ({ order: Number(match[1]) }), (match, node) => node.childCount + (node.attrs.order as number) === Number(match[1])),
      textblockTypeInputRule(/^```$/, nodes.code_block!),
      new InputRule(/^---$/, (state, _match, start, end) => state.tr.replaceRangeWith(start - 1, end, nodes.horizontal_rule!.create())),
    ],
  });
}

/** The toolbar's commands, by the i18n key that names each button. */
export const TOOLBAR: ReadonlyArray<{ key: 'bold' | 'italic' | 'code' | 'h1' | 'h2' | 'paragraph' | 'bullets' | 'numbers' | 'quote'; command: Command }> = [
  { key: 'bold', command: toggleMark(marks.strong!) },
  { key: 'italic', command: toggleMark(marks.em!) },
  { key: 'code', command: toggleMark(marks.code!) },
  { key: 'h1', command: setBlockType(nodes.heading!, { level: 1 }) },
  { key: 'h2', command: setBlockType(nodes.heading!, { level: 2 }) },
  { key: 'paragraph', command: setBlockType(nodes.paragraph!) },
  { key: 'bullets', command: wrapInList(nodes.bullet_list!) },
  { key: 'numbers', command: wrapInList(nodes.ordered_list!) },
  { key: 'quote', command: wrapIn(nodes.blockquote!) },
];

/** Undo is prosemirror-history's, which undoes only this editor's own steps, not a collaborator's. */
export function editingPlugins(): Plugin[] {
  return [
    markdownInputRules(),
    history(),
    keymap({
      'Mod-z': undo,
      'Shift-Mod-z': redo,
      'Mod-y': redo,
      'Mod-b': toggleMark(marks.strong!),
      'Mod-i': toggleMark(marks.em!),
      'Mod-`': toggleMark(marks.code!),
      Enter: splitListItem(nodes.list_item!),
      'Mod-[': liftListItem(nodes.list_item!),
      'Mod-]': sinkListItem(nodes.list_item!),
      'Shift-Ctrl-0': setBlockType(nodes.paragraph!),
      'Mod-Enter': exitCode,
    }),
    keymap(baseKeymap),
  ];
}
