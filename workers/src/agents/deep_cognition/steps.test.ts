import test from 'ava';
import { pageNote } from './steps.ts';
import { sentencesOf } from './text.ts';

const TITLE = '钠电池成本之争：已经比锂电便宜了吗？';
const PAGE = [
  TITLE,
  '关于钠离子电池的成本，业内观点并不一致。',
  '钠离子电池的成本问题讨论很多。',
  '也有券商报告认为钠离子电池的成本已降至每瓦时0.38元。',
  `${'更多的背景介绍放在这里，说的是别的事情。'.repeat(30)}`,
].join('\n');

test("a page's note is its own sentences on the step, a sentence with a figure first, never its heading", (t) => {
  const note = pageNote(TITLE, PAGE, '钠离子电池 成本');
  const sentences = sentencesOf(note);
  t.true(sentences.length > 0 && sentences.length <= 2);
  for (const sentence of sentences) t.true(PAGE.includes(sentence), `taken word for word from the page: ${sentence}`);
  t.true(note.includes('每瓦时0.38元'), 'of sentences as close to the step, the one with a figure');
  t.false(note.includes(TITLE), 'the heading repeats the title');
});

test('a page that shares no word with the step still gets a note: its opening sentences', (t) => {
  const note = pageNote('Unrelated', 'Unrelated\nA page about gardening. It says nothing of batteries.', '钠离子电池 成本');
  t.true(note.length > 0);
  t.true(note.includes('gardening'));
});
