import test from 'ava';
import { ReasoningFilter } from './reasoning.ts';
import type { ReasoningFormat } from './profile.ts';

/** Feeds the pieces one by one, as a stream would; returns what the caller would see, and the reasoning. */
function feed(pieces: string[], format: ReasoningFormat = 'none') {
  const filter = new ReasoningFilter(format);
  const seen: string[] = [];
  let reasoning = '';
  for (const piece of [...pieces.map((p) => filter.push(p)), filter.end()]) {
    if (piece.text) seen.push(piece.text);
    reasoning += piece.reasoning;
  }
  return { text: seen.join(''), seen, reasoning };
}

/** Every way of cutting `text` in two, plus one character at a time. */
function splits(text: string): string[][] {
  const all = [[...text]];
  for (let i = 1; i < text.length; i++) all.push([text.slice(0, i), text.slice(i)]);
  return all;
}

test('a <think> block is removed, also when any tag is cut across pieces', (t) => {
  const raw = '<think>用户想要 JSON {"a": 1}，先想想。</think>\n\n{"answer": 42}';
  for (const pieces of splits(raw)) {
    const { text, reasoning, seen } = feed(pieces);
    t.is(text, '{"answer": 42}', JSON.stringify(pieces));
    t.is(reasoning, '用户想要 JSON {"a": 1}，先想想。');
    t.false(seen.some((piece) => piece.includes('<') || piece.includes('想')), JSON.stringify(pieces));
  }
});

test('<thinking> blocks in the middle are removed and the text around them kept', (t) => {
  const raw = 'Before. <THINKING>hidden {</THINKING>After.';
  for (const pieces of splits(raw)) t.is(feed(pieces).text, 'Before. After.', JSON.stringify(pieces));
});

test('think_tags: an answer that starts inside reasoning, its opening tag dropped by the server, shows only what follows </think>', (t) => {
  const raw = '好的，我需要先列出大纲 {draft}。\n</think>\n\n# 报告\n正文';
  for (const pieces of splits(raw)) {
    const { text, reasoning } = feed(pieces, 'think_tags');
    t.is(text, '# 报告\n正文', JSON.stringify(pieces));
    t.is(reasoning, '好的，我需要先列出大纲 {draft}。\n');
  }
  // Without the profile saying so, nothing says it was reasoning until too late: only the stray tag goes.
  t.is(feed(['思考', '</think>答案']).text, '思考答案');
});

test('think_tags: an answer with no reasoning at all arrives whole at the end, and one with an opening tag streams after it', (t) => {
  const plain = feed(['Plain ', 'answer ', 'a < b.'], 'think_tags');
  t.is(plain.text, 'Plain answer a < b.');
  t.deepEqual(plain.seen, ['Plain answer a < b.']);
  const tagged = feed(['  <thi', 'nk>x</think>', 'One ', 'two'], 'think_tags');
  t.deepEqual(tagged.seen, ['One ', 'two']);
});

test('think_tags: once the server separates reasoning itself, content streams at once', (t) => {
  const filter = new ReasoningFilter('think_tags');
  t.is(filter.push('Hel').text, '');
  t.is(filter.separatedByServer().text, 'Hel');
  t.is(filter.push('lo').text, 'lo');
});

test('an unclosed block is reasoning to the end; a lone "<" or a tag-like word is text', (t) => {
  t.is(feed(['Answer.<think>cut by the cap {']).text, 'Answer.');
  t.is(feed(['x <', 'y and <thinker>']).text, 'x <y and <thinker>');
  t.is(feed(['x <th']).text, 'x <th');
});

test('a whole text in one piece is filtered the same', (t) => {
  t.is(feed(['<think>a</think>b']).text, 'b');
  t.is(feed(['a</think>b'], 'think_tags').text, 'b');
  t.is(feed(['no reasoning'], 'think_tags').text, 'no reasoning');
});
