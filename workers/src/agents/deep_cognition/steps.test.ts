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

test("a figure the page gives far from where it speaks of the step in words joins its note", (t) => {
  const FAR = '测试表明，钠离子电池在零下20℃时的容量保持率约为90%。';
  const page = ['钠离子电池技术综述', '本文综述钠离子电池的研究与产业化现状。', '钠离子电池已进入早期产业化阶段。', '钠离子电池的产业化进展很快。', '材料体系的历史沿革很长，这里不再赘述。'.repeat(60), FAR].join('\n');
  const note = pageNote('钠离子电池技术综述', page, '钠离子电池 产业化 现状');
  t.true(note.includes('产业化'), 'the sentences on the step');
  t.true(note.endsWith(FAR), 'and the figure past them');
  t.is(sentencesOf(note).length, 3);
  t.false(note.includes('本文综述'), "the page's account of itself is no finding");
});

test('a page that shares no word with the step still gets a note: its opening sentences', (t) => {
  const note = pageNote('Unrelated', 'Unrelated\nA page about gardening. It says nothing of batteries.', '钠离子电池 成本');
  t.true(note.length > 0);
  t.true(note.includes('gardening'));
});
