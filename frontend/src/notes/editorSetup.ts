import { baseKeymap, exitCode, setBlockType } from 'prosemirror-commands';
import { history, redo, undo } from 'prosemirror-history';
import { keymap } from 'prosemirror-keymap';
import { schema } from 'prosemirror-markdown';
import { liftListItem, sinkListItem, splitListItem } from 'prosemirror-schema-list';
import type { Plugin } from 'prosemirror-state';
import { markdownEditing } from '../panels/canvas/markdownInput.ts';

export function notePlugins(save: () => void): Plugin[] {
  const { nodes } = schema;
  return [
    ...markdownEditing(),
    history(),
    keymap({
      'Mod-z': undo,
      'Shift-Mod-z': redo,
      'Mod-y': redo,
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
