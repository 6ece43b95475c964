import test from 'ava';
import { cleanTitle, headlineOf, reportTitleOf } from './titles.ts';

test('a generated title is one clean line', (t) => {
  t.is(cleanTitle('“固态电池技术路线对比”。'), '固态电池技术路线对比');
  t.is(cleanTitle('好的，这是页面：<artifact filename="calc.html" type="text/html"><h1>x</h1></artifact>'), '好的，这是页面');
  t.is(cleanTitle('\n\n事件溯源入门\n第二行不要'), '事件溯源入门');
  t.is(cleanTitle('<div></div>'), '');
  t.is(cleanTitle('长'.repeat(40)).length, 30);
});

test('offline, the title is the question’s first clause', (t) => {
  t.is(headlineOf('什么是事件溯源？请详细说明。'), '什么是事件溯源');
});

test('a report’s heading is the brief’s first clause whole, capitalised in English, and cut at a word only when very long', (t) => {
  t.is(reportTitleOf('write a script that counts lines'), 'Write a script that counts lines');
  t.is(reportTitleOf('面向公司管理层写一篇简报：钠离子电池在储能电站中的低温表现和成本优势。请引用我的笔记。'), '面向公司管理层写一篇简报：钠离子电池在储能电站中的低温表现和成本优势');
  const long = reportTitleOf(`a review of ${'very '.repeat(30)}long things`);
  t.true(long.length <= 80 && long.endsWith('very…'), long);
});
