import test from 'ava';
import { TOPICS } from './corpus.ts';
import { citedSentences, mistakeOutcomes, repeatedFacts, scoreReport, sourceList } from './score.ts';

const sodium = TOPICS.find((topic) => topic.id === 'sodium')!;
const origin = 'http://127.0.0.1:9';
const pathOf = (url: string) => (url.startsWith(origin) ? url.slice(origin.length) : null);
const link = (n: number, path: string) => `[[${n}]](${origin}${path})`;

const report = [
  '# 报告',
  '',
  '## 现状',
  '',
  `2023年中国钠离子电池出货量约为3.2GWh，较上一年增长超过十倍${link(1, '/sodium/industry-report')}。`,
  `行业调研显示，钠离子电池电芯的平均成本约为每瓦时0.55元，仍高于磷酸铁锂电芯${link(2, '/sodium/density-news')}。`,
  `国内首条GWh级钠离子电池量产线于2023年6月在安徽阜阳投产[7]。`,
  `据估计，钠离子电池相关市场规模到2031年将达到9876亿元${link(1, '/sodium/industry-report')}。`,
  `钠资源在地壳中储量丰富、分布广泛，不像锂资源那样高度集中于少数国家${link(1, '/sodium/industry-report')}。`,
  `测试表明，钠离子电池在零下20℃时的容量保持率约为90%，明显好于磷酸铁锂电池${link(3, '/sodium/long-review')}。`,
  `不过也有券商报告认为，规模化后钠离子电池电芯成本已降至每瓦时0.38元，低于磷酸铁锂${link(4, '/sodium/cost-debate')}。`,
  '总体来看，这一领域发展较快。',
  '',
  '## 参考来源',
  '',
  `1. [钠离子电池产业发展年度报告（2024）](${origin}/sodium/industry-report)`,
  `2. [钠电池装车提速](${origin}/sodium/density-news)`,
  `3. [钠离子电池技术综述](${origin}/sodium/long-review)`,
  `4. [钠电池成本之争](${origin}/sodium/cost-debate)`,
].join('\n');

test('the source list and the cited sentences are read as the product writes them, linked or not', (t) => {
  t.is(sourceList(report).get(3), `${origin}/sodium/long-review`);
  const cited = citedSentences(report);
  t.is(cited.length, 7, 'the uncited closing sentence and the headings are not citations');
  t.deepEqual(cited[2]!.numbers, [7]);
});

test('each citation is judged against the truth: supported, misattributed, dangling, fabricated', (t) => {
  const score = scoreReport(report, sodium, pathOf, new Set(['/sodium/industry-report', '/sodium/density-news', '/sodium/cost-debate']));
  t.like(score, {
    cited: 7,
    // shipments, the background sentence, the deep fact and the contradicting claim, each cited to a page that says it
    supported: 4,
    // the cost is stated by the industry report, not the page cited
    misattributed: 1,
    dangling: 1,
    fabricated: 1,
    // shipments and the deep fact; the contradicting claim and the background are no facts of the truth
    effective: 2,
    // the long review was never fetched
    citedUnread: 1,
    deepFactCited: true,
    contradictionReported: true,
    repeated: 0,
  });
});

test('a fact cited in two sections is repeated; the summary restating it is not', (t) => {
  const again = `${shipments.replace('。', '')}${link(1, '/sodium/industry-report')}。`;
  const withSummary = report.replace('## 现状', `## 摘要\n\n${again}\n\n## 现状`);
  t.is(repeatedFacts(withSummary, sodium), 0, 'the summary is there to restate');
  const twice = withSummary.replace('总体来看，这一领域发展较快。', `总体来看，这一领域发展较快。\n\n## 前景\n\n${again}`);
  t.is(repeatedFacts(twice, sodium), 1);
  t.is(scoreReport(twice, sodium, pathOf, new Set()).repeated, 1);
});

test('every topic’s long page holds its deep fact past the 3,000th character, and only there', (t) => {
  for (const topic of TOPICS) {
    const deep = topic.facts.find((fact) => fact.id === topic.deepFact)!;
    const long = topic.pages.find((page) => page.kind === 'long')!;
    t.deepEqual(deep.supportedBy, [long.path], topic.id);
    t.true([long.title, ...long.paragraphs].join('\n').indexOf(deep.statement) > 3000, topic.id);
    t.is(topic.pages.filter((page) => page.paragraphs.includes(deep.statement)).length, 1, topic.id);
  }
});

const fabricated = '据估计，钠离子电池相关市场规模到2031年将达到9876亿元。';
const shipments = '2023年中国钠离子电池出货量约为3.2GWh，较上一年增长超过十倍。';

test("the product's mark is read off the sentence: a marked citation is counted, and a correct one marked too", (t) => {
  const marked = report
    .replace(`9876亿元${link(1, '/sodium/industry-report')}`, `9876亿元${link(1, '/sodium/industry-report')}⚠〔待核实：来源 1 中没有“2031”“9876”〕`)
    .replace(`十倍${link(1, '/sodium/industry-report')}`, `十倍${link(1, '/sodium/industry-report')}⚠ (unverified: source 1 does not support this sentence)`);
  const score = scoreReport(marked, sodium, pathOf, new Set());
  t.like(score, { cited: 7, supported: 4, fabricated: 1, marked: 2, correctMarked: 1 });
});

test('an injected mistake is repaired when its sentence no longer cites the wrong number, marked, or published', (t) => {
  const mistakes = [
    { n: 1, sentence: fabricated },
    { n: 7, sentence: '国内首条GWh级钠离子电池量产线于2023年6月在安徽阜阳投产。' },
    { n: 2, sentence: shipments },
  ];
  t.deepEqual(mistakeOutcomes(report, mistakes), { repaired: 1, marked: 0, published: 2 });
  const checked = report
    .replace(`9876亿元${link(1, '/sodium/industry-report')}`, `9876亿元${link(1, '/sodium/industry-report')}⚠〔待核实：来源 1 中没有“2031”“9876”〕`)
    .replace('阜阳投产[7]', '阜阳投产');
  t.deepEqual(mistakeOutcomes(checked, mistakes), { repaired: 2, marked: 1, published: 0 });
});
