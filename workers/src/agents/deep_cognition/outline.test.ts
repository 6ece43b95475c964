import test from 'ava';
import * as rules from './heuristics.ts';
import { reportTitle, sectionHeading } from './outline.ts';

test("the model's heading stands as written once its markup, quotes and end punctuation are gone", (t) => {
  t.is(sectionHeading('## **现状与关键数据**。', '梳理钠离子电池的现状与关键数据'), '现状与关键数据');
  t.is(sectionHeading('小标题：成本之争\n多余的一行', 'x'), '成本之争');
  t.is(sectionHeading('"Costs and disputes."', 'x'), 'Costs and disputes');
});

test('no usable heading or title falls back: the step, or the rules title', (t) => {
  t.is(sectionHeading(undefined, '梳理现状'), '梳理现状');
  t.is(sectionHeading(' “” ', '梳理现状'), '梳理现状');
  t.is(reportTitle(''), null);
  t.is(reportTitle('《钠离子电池：走到哪一步了》'), '钠离子电池：走到哪一步了');
  t.true(reportTitle('A'.repeat(200))!.length <= 80);
  t.is(reportTitle('heat pumps in Europe'), 'Heat pumps in Europe');
});

test("offline, the rules' title names the topic without the question's closing words", (t) => {
  const title = (question: string) => rules.reportTitle(rules.analyseQuestion(question));
  t.is(title('2023年以来中国钠离子电池的产业化进展如何？请写一份研究报告。'), '2023年以来中国钠离子电池的产业化进展研究报告');
  t.is(title('社区养老服务有哪些？'), '社区养老服务研究报告');
  t.is(title('调研固态电池'), '固态电池研究报告');
});
