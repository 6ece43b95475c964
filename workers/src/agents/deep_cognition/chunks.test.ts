import test from 'ava';
import { ChunkIndex, chunksOf, excerptsBySource, tokenize } from './chunks.ts';
import { parseReport, SourceBook } from './sources.ts';

test('Chinese is searched by pairs of Han characters, other scripts by words', (t) => {
  t.deepEqual(tokenize('钠离子电池'), ['钠离', '离子', '子电', '电池']);
  t.deepEqual(tokenize('钠'), ['钠']);
  t.deepEqual(tokenize('Heat pumps sold 2.6 million units, 8%.'), ['heat', 'pumps', 'sold', '2.6', 'million', 'units', '8']);
  t.deepEqual(tokenize('低温容量90%'), ['低温', '温容', '容量', '90']);
});

test('a page is cut into chunks of whole sentences', (t) => {
  const page = `${'钠离子电池的背景介绍，这一段只是铺垫而已。'.repeat(60)}\n\n测试表明，钠离子电池在零下20℃时的容量保持率约为90%。`;
  const chunks = chunksOf(page);
  t.true(chunks.length > 3);
  for (const chunk of chunks) t.true(chunk.length <= 500, 'no chunk much longer than its size');
  t.true(chunks.every((chunk) => /。$/.test(chunk)), 'no sentence is cut');
  t.true(chunks.at(-1)!.endsWith('铺垫而已。测试表明，钠离子电池在零下20℃时的容量保持率约为90%。'), 'Chinese sentences join without spaces');
  t.is(chunksOf('First sentence here. Second sentence here.')[0], 'First sentence here. Second sentence here.');
});

const FILLER = '行业报告回顾了电池材料的历史沿革与各国政策。'.repeat(160);
const DEEP = '测试表明，钠离子电池在零下20℃时的容量保持率约为90%，明显好于磷酸铁锂电池。';

test('BM25 finds the chunk that bears on the question anywhere in a page', (t) => {
  const index = new ChunkIndex([
    { n: 1, text: `${FILLER}${DEEP}` },
    { n: 2, text: '少吃盐有益健康。膳食指南建议每天食盐不超过5克。' },
  ]);
  const [best] = index.best('钠离子电池 低温 容量保持率', 1);
  t.is(best!.n, 1);
  t.true(best!.text.includes(DEEP));
});

test('a section is given the chunks on it, with source numbers kept, and a source with nothing on it costs nothing', (t) => {
  const book = new SourceBook();
  book.add({ title: '综述', url: 'https://a.test/review', text: `${FILLER}${DEEP}`, read: true });
  book.add({ title: '少吃盐', url: 'https://a.test/salt', text: '膳食指南建议成年人每天食盐摄入量不超过5克。', read: true });
  book.add({ title: '快讯', url: 'https://a.test/news', text: '钠离子电池低温性能受到关注。', read: false });
  const context = book.context('钠离子电池的低温容量保持率', 'zh');
  t.is(context.length, 3, 'numbered as the book numbers them');
  t.true(context[0]!.text.includes(DEEP), 'the fact past character 3,000 reaches the writer');
  t.true(context[0]!.text.length < 1_500, 'without the rest of the page');
  t.is(context[1]!.text, '', 'nothing of a source that says nothing on it');
  t.is(context[2]!.title, '快讯（仅据搜索摘要，未读原文）', 'a snippet-only source says so');
  t.is(book.textOf(1), `${FILLER}${DEEP}`, 'the whole stored text stays available');
  t.is(book.textOf(9), undefined);
});

test('a page read replaces its snippet; a snippet never replaces a page; the list marks what rests on a snippet, and a revision reads the mark back', (t) => {
  const book = new SourceBook();
  book.add({ title: 'A', url: 'https://a.test/a', text: 'snippet of a', read: false });
  book.add({ title: 'B', url: 'https://a.test/b', text: 'the whole page b', read: true });
  book.add({ title: 'A', url: 'https://a.test/a', text: 'page', read: true });
  book.add({ title: 'B', url: 'https://a.test/b', text: 'a much longer snippet of page b', read: false });
  t.is(book.textOf(1), 'page');
  t.is(book.textOf(2), 'the whole page b');
  book.add({ title: 'C', url: 'https://a.test/c', text: 'snippet', read: false });
  const list = book.markdown('en');
  t.regex(list, /^3\. \[C \(search snippet only; page not read\)\]\(https:\/\/a\.test\/c\)$/m);
  t.regex(list, /^1\. \[A\]\(https:\/\/a\.test\/a\)$/m);
  t.deepEqual(parseReport(`body\n\n${book.markdown('zh')}`).sources[2], { n: 3, title: 'C', url: 'https://a.test/c', read: false });
});

test('a call is told each sentence once: a lead repeated down a page, or a sentence two pages share, reaches it in its first place only', (t) => {
  const LEAD = '2023年中国钠离子电池出货量约为3.2GWh，较上一年增长超过十倍。';
  const COST = '钠离子电池电芯的平均成本约为每瓦时0.55元，仍高于磷酸铁锂电芯。';
  const book = new SourceBook();
  book.add({ title: '年度报告', url: 'https://a.test/report', text: `${LEAD}${'报告回顾了电池材料的历史沿革与各国政策。'.repeat(30)}\n\n${LEAD}${COST}`, read: true });
  book.add({ title: '快讯', url: 'https://a.test/news', text: `${LEAD}钠离子电池装车提速，出货量与能量密度双双提升。`, read: true });
  const context = book.context('钠离子电池 出货量 成本', 'zh');
  const told = context.map((document) => document.text).join('\n');
  t.is(told.split(LEAD).length - 1, 1, 'the lead once, in source 1');
  t.true(context[0]!.text.includes(LEAD) && context[0]!.text.includes(COST));
  t.true(context[1]!.text.includes('装车提速'), "what only source 2 says is still given");
});

test("a page's account of itself is not shown: it is what the page is, not what it found", (t) => {
  const excerpts = excerptsBySource([{ n: 1, order: 0, text: 'This review compares how countries adopted heat pumps. Norway leads with 632 per 1,000 households.' }]);
  t.is(excerpts.get(1), 'Norway leads with 632 per 1,000 households.');
});

test('chunks of a page that are not neighbours are set on lines of their own', (t) => {
  const excerpts = excerptsBySource([
    { n: 1, order: 3, text: 'Sales fell by about 5% in 2023 as gas prices eased.' },
    { n: 1, order: 0, text: 'Countries adopted heat pumps at very different speeds.' },
  ]);
  t.is(excerpts.get(1), 'Countries adopted heat pumps at very different speeds.\n…\nSales fell by about 5% in 2023 as gas prices eased.');
});

test('past the chunks it must keep, a floor leaves out chunks far below the best match', (t) => {
  const index = new ChunkIndex([
    { n: 1, text: '钠离子电池电芯的平均成本约为每瓦时0.55元，仍高于磷酸铁锂电芯。' },
    { n: 2, text: '钠离子电池的电芯成本随规模化快速下降，每瓦时成本有望进一步降低。' },
    { n: 3, text: '任何新技术在示范阶段都面临成本高、可靠性有待验证的问题。' },
  ]);
  const query = '钠离子电池 电芯 每瓦时 成本';
  t.is(index.best(query, 7).length, 3, 'without a floor, every chunk that shares a word');
  t.deepEqual(
    index.best(query, 7, 7, { share: 0.5, keep: 1 }).map((chunk) => chunk.n),
    [1, 2],
    'the boilerplate that only shares "成本" stays out',
  );
  t.is(index.best(query, 7, 7, { share: 0.99, keep: 2 }).length, 2, 'what it must keep, it keeps');
  t.deepEqual(
    index.best(query, 7, 7, { share: 0.5, keep: 1, always: new Set([3]) }).map((chunk) => chunk.n),
    [1, 2, 3],
    'a source the user attached is offered whatever its score',
  );
});

test('a chunk whose every sentence a better one already holds takes no place: the place goes to the next chunk with something new', (t) => {
  const LEAD = '2023年中国钠离子电池出货量约为3.2GWh，较上一年增长超过十倍。';
  const index = new ChunkIndex([
    { n: 1, text: `${LEAD}钠离子电池出货量的增长主要来自储能。` },
    { n: 2, text: LEAD },
    { n: 3, text: '钠离子电池在两轮车上的出货量也在增加。' },
  ]);
  t.deepEqual(index.best('钠离子电池 出货量', 2).map((chunk) => chunk.n), [1, 3]);
});

test("a section is given the notes of the pages its step read, though the section's words find nothing else of them", (t) => {
  const NOTE = '测试表明，这类电池在零下20℃时的容量保持率约为90%。';
  const book = new SourceBook();
  book.add({ title: '产业报告', url: 'https://a.test/report', text: '钠离子电池产业化进展：2023年出货量约为3.2GWh。', read: true });
  book.add({ title: '综述', url: 'https://a.test/review', text: `${NOTE}\n\n${'综述回顾了材料体系的历史沿革。'.repeat(40)}`, read: true });
  book.add({ title: '快讯', url: 'https://a.test/news', text: '低温性能受到关注。', read: false });
  const focus = '钠离子 产业化进展';
  t.false(book.context(focus, 'zh').some((document) => document.text.includes(NOTE)), 'by words alone, the note stays out');
  const [noted] = book.sections([{ focus, sources: [2, 3] }], 'zh') as [ReturnType<SourceBook['context']>];
  t.true(noted[1]!.text.startsWith(NOTE), "the note of the page the step read");
  t.true(noted[1]!.text.length <= 400, 'and not the rest of the page');
  t.is(noted[2]!.text, '', 'a snippet is no note');
});

test("a page's heading keeps its line in a chunk: it never becomes the first words of the sentence after it", (t) => {
  const [chunk] = chunksOf('固态电池的产业化进展\n固态电池用固态电解质取代了液态电解液，因此在安全性上有明显优势。');
  t.is(chunk, '固态电池的产业化进展\n固态电池用固态电解质取代了液态电解液，因此在安全性上有明显优势。');
  const excerpt = excerptsBySource([{ n: 1, order: 0, text: chunk! }]).get(1)!;
  t.is(excerpt.split('\n')[1], '固态电池用固态电解质取代了液态电解液，因此在安全性上有明显优势。');
});

const SHIPMENTS = '2023年中国钠离子电池出货量约为3.2GWh，较上一年增长超过十倍。';
const COST = '钠离子电池电芯的平均成本约为每瓦时0.55元，仍高于磷酸铁锂电芯。';
const FORECAST = '研究机构预测，到2030年钠离子电池的年需求量有望达到150GWh左右。';

test("the sections of a report are never shown the same sentence: a fact several pages state goes to one of them", (t) => {
  const book = new SourceBook();
  book.add({ title: '年度报告', url: 'https://a.test/report', text: `${SHIPMENTS}${COST}\n\n${FORECAST}`, read: true });
  book.add({ title: '快讯', url: 'https://a.test/news', text: `${SHIPMENTS}钠离子电池的出货量增长主要来自储能与两轮车。`, read: true });
  book.add({ title: '成本拆解', url: 'https://a.test/cost', text: `${COST}钠离子电池成本的下降取决于硬碳负极的价格。`, read: true });
  const [state, cost] = book.sections([{ focus: '钠离子电池 出货量 成本 现状' }, { focus: '钠离子电池 成本 前景' }], 'zh');
  const shown = (documents: ReturnType<SourceBook['context']>) => documents.map((document) => document.text).join('\n');
  for (const sentence of [SHIPMENTS, COST, FORECAST]) {
    t.false(shown(state!).includes(sentence) && shown(cost!).includes(sentence), `not to both: ${sentence}`);
  }
  t.true(shown(state!).includes(SHIPMENTS), 'the section on shipments has them');
  t.true(shown(cost!).includes(COST) || shown(cost!).includes('硬碳负极'), 'the section on cost has something on cost');
  t.true(shown(state!).includes('来自储能与两轮车'), "what only one page says is still given, without the sentence another section has");
  const alone = book.context('钠离子电池 成本 前景', 'zh').map((document) => document.text).join('\n');
  t.true(alone.includes(COST), 'a call on its own is given what bears on it, whatever the sections took');
});

test('sections take their chunks in turns: the first cannot take every fact the later ones bear on', (t) => {
  const pages = Array.from({ length: 6 }, (_, index) => `钠离子电池第${index + 1}项进展：产能、出货与成本都在变化，第${index + 1}条产线投产。`);
  const index = new ChunkIndex(pages.map((text, at) => ({ n: at + 1, text })));
  const [first, second] = index.draft([{ query: '钠离子电池 产能 出货 成本 进展' }, { query: '钠离子电池 成本' }], 3);
  t.is(first!.length, 3);
  t.is(second!.length, 3, 'the second section is given as many as the first');
  t.deepEqual(new Set([...first!, ...second!].map((chunk) => chunk.n)).size, 6, 'and none of the same');
});

test("a section's notes are given beside its chunks and count against no limit, and another section is not shown them again", (t) => {
  const NOTE = '测试表明，这类电池在零下20℃时的容量保持率约为90%。';
  const index = new ChunkIndex([
    { n: 1, text: `${NOTE}综述回顾了材料体系的历史沿革。` },
    { n: 2, text: '钠离子电池产业化进展较快。' },
  ]);
  const [note] = index.heads([1]);
  const [noted, other] = index.draft([{ query: '钠离子电池 产业化', first: [note!] }, { query: '低温 容量保持率' }], 1);
  t.deepEqual(noted!.map((chunk) => chunk.n), [1, 2], 'its note, and its one chunk');
  t.false(other!.some((chunk) => chunk.text.includes(NOTE)), 'the note is not shown twice');
});
