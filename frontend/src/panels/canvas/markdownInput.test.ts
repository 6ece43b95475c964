import test from 'ava';
import { schema } from 'prosemirror-markdown';
import { EditorState, TextSelection, type Plugin, type Transaction } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { parseCanvas, serializeCanvas } from './canvasMarkdown.ts';
import { markdownInputRules } from './markdownInput.ts';

/**
 * Types character by character as the browser does: the input rules plugin sees each key first
 * (through the same prop the view calls), and the text goes in when no rule took it.
 */
function typed(markdown: string, text: string): EditorState {
  const rules = markdownInputRules();
  let state = EditorState.create({ doc: parseCanvas(markdown), plugins: [rules] });
  state = state.apply(state.tr.setSelection(TextSelection.atEnd(state.doc)));
  const view = {
    composing: false,
    get state() {
      return state;
    },
    dispatch(tr: Transaction) {
      state = state.apply(tr);
    },
  } as unknown as EditorView;
  const input = (rules as Plugin).props.handleTextInput!;
  for (const character of text) {
    const { from, to } = state.selection;
    if (character === '\n') {
      const split = state.tr.split(from);
      state = state.apply(split);
      continue;
    }
    if (!input.call(rules, view, from, to, character, () => state.tr.insertText(character, from, to))) state = state.apply(state.tr.insertText(character, from, to));
  }
  return state;
}

test('typed Markdown marks become formatting and are saved as the Markdown typed', (t) => {
  const state = typed('', '储能要点：**成本低** 和 *低温* 以及 `kWh` 见 [报告](https://example.com/r) 完');
  const marked = (name: string) => {
    const texts: string[] = [];
    state.doc.descendants((node) => {
      if (node.isText && node.marks.some((mark) => mark.type.name === name)) texts.push(node.text!);
    });
    return texts;
  };
  t.deepEqual(marked('strong'), ['成本低']);
  t.deepEqual(marked('em'), ['低温']);
  t.deepEqual(marked('code'), ['kWh']);
  t.deepEqual(marked('link'), ['报告']);
  t.is(serializeCanvas(state.doc), '储能要点：**成本低** 和 *低温* 以及 `kWh` 见 [报告](https://example.com/r) 完');
});

test('text typed after a mark is plain again, and delimiters inside words or escaped stay text', (t) => {
  const state = typed('', '**粗** 后 snake_case_name 和 \\*星号*');
  const bold = state.doc.firstChild!.child(0);
  t.is(bold.text, '粗');
  t.is(state.doc.firstChild!.child(1).marks.length, 0);
  t.true(state.doc.textContent.endsWith('后 snake_case_name 和 \\*星号*'));
});

test('line starts become headings, lists and quotes', (t) => {
  const state = typed('', '# 标题\n- 第一\n');
  t.is(state.doc.child(0).type.name, 'heading');
  t.is(state.doc.child(1).type.name, 'bullet_list');
  t.is(typed('', '> 引文').doc.child(0).type.name, 'blockquote');
  t.is(typed('', '1. 第一').doc.child(0).type.name, 'ordered_list');
});

test('blank lines the user typed survive the save and the reload', (t) => {
  const doc = schema.node('doc', null, [
    schema.node('paragraph', null, [schema.text('第一段')]),
    schema.node('paragraph'),
    schema.node('paragraph'),
    schema.node('paragraph', null, [schema.text('隔了两行')]),
  ]);
  const saved = serializeCanvas(doc);
  t.true(parseCanvas(saved).eq(doc));
  t.is(serializeCanvas(parseCanvas(saved)), saved);
});

test('an empty document saves as nothing, and trailing empty paragraphs are not kept', (t) => {
  t.is(serializeCanvas(parseCanvas('')), '');
  const doc = schema.node('doc', null, [schema.node('paragraph', null, [schema.text('正文')]), schema.node('paragraph')]);
  t.is(serializeCanvas(doc), '正文');
});
