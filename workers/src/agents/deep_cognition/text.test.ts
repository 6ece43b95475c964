import test from 'ava';
import { analyseQuestion, clarificationQuestions, judge, plan } from './heuristics.ts';
import { parseReport, SourceBook } from './sources.ts';
import { EDITOR_NOTE, MARKDOWN_DEBRIS } from './harness.ts';
import { aboutThePage, CitationLinker, clip, headingLike, keyPhrases, languageOf, markdownText, sentencesOf, splitEditReport } from './text.ts';

test('edit report: up to 1,500 characters is one block', (t) => {
  const text = '字'.repeat(1500);
  t.deepEqual(splitEditReport(text), [text]);
});

test('edit report: any length with a section heading is one block', (t) => {
  const text = `## 背景\n\n${'段落内容。'.repeat(300)}\n\n${'更多内容。'.repeat(300)}`;
  t.deepEqual(splitEditReport(text), [text]);
});

test('edit report: longer text without a heading is cut on blank lines into chunks of about 800', (t) => {
  const paragraphs = Array.from({ length: 12 }, (_, index) => `第${index + 1}段。${'内容'.repeat(148)}`);
  const text = paragraphs.join('\n\n');
  t.true(text.length > 1500);
  const blocks = splitEditReport(text);
  t.true(blocks.length > 1);
  t.is(blocks.join('\n\n'), text, 'nothing lost or reordered');
  for (const block of blocks) t.true(block.length <= 800 || !block.includes('\n\n'), 'a chunk over 800 is a single paragraph');
  for (const block of blocks.slice(0, -1)) t.true(block.length > 400, 'chunks are filled up to about 800');
});

test('citation markers become links to their source, also when split across pieces', (t) => {
  const urls: Record<number, string> = { 1: 'https://a.test/1', 2: 'https://b.test/2' };
  const linker = new CitationLinker((n) => urls[n]);
  const pieces = ['能量密度更高[', '1]。成本偏高[2', ']，见[1, 2]', '。已有链接[[1]](https://a.test/1)与[3]和[1](x)'];
  const out = pieces.map((piece) => linker.push(piece)).join('') + linker.end();
  t.is(
    out,
    '能量密度更高[[1]](https://a.test/1)。成本偏高[[2]](https://b.test/2)，见[[1]](https://a.test/1)[[2]](https://b.test/2)。已有链接[[1]](https://a.test/1)与[3]和[1](x)',
  );
});

test('a marker at the very end is linked when the text ends', (t) => {
  const linker = new CitationLinker(() => 'https://a.test');
  t.is(linker.push('结论[1]'), '结论');
  t.is(linker.end(), '[[1]](https://a.test)');
});

test('language and key phrases', (t) => {
  t.is(languageOf('帮我研究一下固态电池'), 'zh');
  t.is(languageOf('What is the state of solid-state batteries?'), 'en');
  t.deepEqual(keyPhrases('帮我研究一下固态电池的产业化进展'), ['固态电池', '产业化进展']);
  t.deepEqual(keyPhrases('What is the state of solid-state batteries in 2024?'), ['state', 'solid-state', 'batteries', '2024']);
});

test('a vague question is asked about each open scope; a specific one is not', (t) => {
  const vague = analyseQuestion('帮我研究一下固态电池');
  t.false(vague.specific);
  t.is(vague.topic, '固态电池');
  t.deepEqual(
    clarificationQuestions(vague).map((question) => question.section_id),
    ['focus', 'time', 'region', 'purpose', 'notes'],
  );
  const specific = analyseQuestion('对比2020年以来中国固态电池的技术路线和产业化进展，写一份决策参考报告');
  t.true(specific.specific);
  t.deepEqual(specific.covered.sort(), ['focus', 'purpose', 'region', 'time']);
  const english = analyseQuestion('Research solid-state batteries');
  t.is(english.language, 'en');
  t.is(clarificationQuestions(english)[0]!.question_content, 'What should the report on "solid-state batteries" focus on?');
});

test('the plan takes the chosen focus as a step of its own and searches for it', (t) => {
  const analysis = analyseQuestion('帮我研究一下固态电池');
  const steps = plan(analysis, [
    { id: 'q-focus', question: '侧重', selectedOptions: ['政策与监管'], textInput: '', question_type: 'multiple' },
    { id: 'q-region', question: '地域', selectedOptions: ['中国'], textInput: '', question_type: 'single' },
    { id: 'q-time', question: '时间', selectedOptions: ['近三到五年'], textInput: '', question_type: 'single' },
  ]);
  t.is(steps.length, 5);
  t.is(steps[2]!.description, '深入分析「固态电池」的政策与监管');
  // The report's title names the topic; its section headings do not repeat it.
  t.deepEqual(
    steps.map((step) => step.heading),
    ['基本概念与背景', '现状与最新进展', '政策与监管', '关键问题与挑战', '发展趋势与建议'],
  );
  t.deepEqual(
    plan(analyseQuestion('Research solid-state batteries'), []).map((step) => step.heading),
    ['Background and key concepts', 'Current state and recent developments', 'Key problems and challenges', 'Trends and recommendations'],
  );
  t.is(steps[2]!.queries[0], '固态电池 中国 政策与监管');
  t.is(steps[0]!.queries[0], '固态电池 中国 概念 背景', 'a time range is no search word');
});

test('a result is useful when it is about the query, with the sentence that says so', (t) => {
  const [useful, unrelated] = judge(
    [
      { title: '固态电池成本', url: 'https://a.test', snippet: '菜谱。固态电池的成本仍然偏高。', source: 'web' },
      { title: '今日菜谱', url: 'https://b.test', snippet: '红烧肉的做法很简单。', source: 'web' },
    ],
    '固态电池 成本',
  );
  t.like(useful, { has_useful_info: true, useful_info_summary: '固态电池的成本仍然偏高。' });
  t.like(unrelated, { has_useful_info: false, useful_info_summary: '' });
});

test('a report keeps its source numbers through parsing', (t) => {
  const sources = new SourceBook();
  sources.add({ title: '甲', url: 'https://a.test', text: '甲的内容' });
  sources.add({ title: '乙 [草稿]', url: 'note:42', text: '乙的内容' });
  t.is(sources.add({ title: '甲', url: 'https://a.test/', text: '甲的更多内容' }), 1, 'the same address is the same source');
  const content = `# 报告\n\n正文[1]。\n\n${sources.markdown('zh')}`;
  const parsed = parseReport(content);
  t.is(parsed.body, '# 报告\n\n正文[1]。');
  t.deepEqual(parsed.sources, [
    { n: 1, title: '甲', url: 'https://a.test' },
    { n: 2, title: '乙 草稿', url: 'note:42' },
  ]);
  t.is(sources.urlOf(2), undefined, 'only web addresses are linked');
});

test('the user’s own material links to its page or is labelled, and reads back as the same source', (t) => {
  const sources = new SourceBook();
  sources.add({ title: '走访记录', url: 'note:n-1', text: '…' });
  sources.add({ title: '调研.pdf', url: 'upload:c-9', text: '…' });
  sources.add({ title: '钠电池认知', url: 'cognition:k-3', text: '…' });
  const list = sources.markdown('zh');
  t.true(list.includes('1. [走访记录](/note?id=n-1)'));
  t.true(list.includes('2. 调研.pdf（上传文件）'));
  t.true(list.includes('3. [钠电池认知](/cognition/display?id=k-3)'));
  const parsed = parseReport(`# 报告\n\n${list}`);
  const again = new SourceBook();
  for (const source of parsed.sources) again.add({ title: source.title, url: source.url, text: source.title }, source.n);
  t.is(again.add({ title: '调研.pdf', url: 'upload:c-9', text: '全文' }), 2, 'an upload attached again is the source it was');
  t.is(again.add({ title: '走访记录', url: 'note:n-1', text: '全文' }), 1);
  t.is(again.size, 3);
});

test('Markdown reads as its text: no markup, escapes or list markers, and plain text is left as it was', (t) => {
  t.is(markdownText('## 标题\n\n- **要点**：见[报告](https://example.com)\n- 1. 嵌套 `code`\n\n> 引文'), '标题\n要点：见报告\n嵌套 code\n引文');
  t.is(markdownText(EDITOR_NOTE), '钠离子电池走访\n重点：钠离子电池在零下二十度仍能正常放电，低温性能好。\n钠离子电池的成本比磷酸铁锂低两到三成，储能电站更看重成本。\n储能电站的招标开始要求钠离子电池的低温性能指标。\n钠离子电池有望在储能电站率先规模应用，见报告。');
  t.is(markdownText('A page, read as text.\nIts second line: C:\\data, 3 < 4.'), 'A page, read as text.\nIts second line: C:\\data, 3 < 4.');
  t.false(sentencesOf(EDITOR_NOTE).some((sentence) => MARKDOWN_DEBRIS.test(sentence) || sentence.includes('](')));
});

test('clip cuts English at a word boundary and Chinese at the character', (t) => {
  t.is(clip('Why are solid-state batteries safer than liquid lithium-ion cells', 40), 'Why are solid-state batteries safer…');
  t.is(clip('固态电池的安全性比液态锂电池好在哪里以及它的成本如何变化', 10), '固态电池的安全性比…');
  t.is(clip('Supercalifragilisticexpialidocious words', 12), 'Supercalifr…', 'no space near the cut: cut at the character');
  t.is(clip('short', 40), 'short');
});

test('a short line that ends in no sentence end is a heading, not a claim', (t) => {
  t.true(headingLike('固态电池的产业化进展'));
  t.true(headingLike('关于固态电池 技术原理与进展的笔记'));
  t.true(headingLike('Heat pumps country by country'));
  t.false(headingLike('固态电池用固态电解质取代了液态电解液。'));
  t.false(headingLike('Norway leads Europe with about 632 heat pumps per 1,000 households.'));
  t.false(headingLike('Sales by country in 2023, in thousands of units, from the association'), 'a long line without its full stop is still prose');
});

test('a page speaking of itself is no finding; a page reporting a result is', (t) => {
  for (const sentence of [
    '本文对中国钠离子电池的前景进行展望。',
    '本文从材料体系、电化学性能、安全性和应用场景四个方面综述钠离子电池的研究与产业化现状。',
    '本文逐项拆解中国钠离子电池的成本现状。',
    'This brief summarises what is known about microplastics in drinking water and how treatment affects them.',
    'This overview collects the sales figures of the European heat pump association.',
    'In this article we compare heat pump subsidies across Europe.',
    'This review looks at how people are exposed to micro- and nanoplastics.',
  ]) {
    t.true(aboutThePage(sentence), sentence);
  }
  for (const sentence of [
    '本文认为，钠离子电池的成本优势将在2026年后显现。',
    '测算显示，本文所述产线的良率约为九成。',
    'This report estimates that Europe needs 750,000 more installers by 2030.',
    'This study counted about 240,000 particles per litre.',
    'The review found no evidence of harm at current levels.',
  ]) {
    t.false(aboutThePage(sentence), sentence);
  }
});
