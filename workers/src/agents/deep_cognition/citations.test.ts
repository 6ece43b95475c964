import test from 'ava';
import { citedSentences, findings, markFor, MARK_PATTERN, passagesOf, rebuild, sentencesAround, support, type Finding, type Ruling } from './citations.ts';

const zhSource = passagesOf(
  '钠离子电池不依赖锂资源。2023年，宁德时代发布的第一代钠离子电池能量密度达到160Wh/kg。业内预计钠离子电池成本比磷酸铁锂电池低约30%。低温性能是它的一大优势，零下20度时容量保持率在90%以上。',
);
const zhOther = passagesOf('社区养老服务中心在城市中快速铺开。护理人员缺口仍然很大，许多机构招不到人。');
const enSource = passagesOf(
  'Heat pump sales in Europe grew by 38% in 2022, according to the European Heat Pump Association. Poland and Italy saw the fastest growth. Sales fell again in 2023 as gas prices eased.',
);

test('a cited sentence takes the markers written after its end, linked or not', (t) => {
  const text = '钠离子电池成本更低[1]。低温性能好。[[2]](https://b.example/x.html)\nSales grew. [3] Fine.';
  const sentences = citedSentences(text);
  t.deepEqual(
    sentences.map((sentence) => ({ claim: sentence.claim, numbers: sentence.markers.flatMap((marker) => marker.numbers), text: text.slice(sentence.start, sentence.end) })),
    [
      { claim: '钠离子电池成本更低。', numbers: [1], text: '钠离子电池成本更低[1]。' },
      { claim: '低温性能好。', numbers: [2], text: '低温性能好。[[2]](https://b.example/x.html)' },
      { claim: 'Sales grew.', numbers: [3], text: 'Sales grew. [3]' },
    ],
  );
  t.deepEqual(citedSentences('见资料[1, 2]，另见[3]。').flatMap((sentence) => sentence.markers.flatMap((marker) => marker.numbers)), [1, 2, 3]);
});

test('a sentence the source says, in other words of its own passage, is supported; Han text matches by bigrams', (t) => {
  const verdict = support('宁德时代的第一代钠离子电池能量密度达到160Wh/kg。', zhSource);
  t.is(verdict.verdict, 'supported');
  t.true(verdict.excerpt.includes('160Wh/kg'));
  t.is(support('Heat pump sales in Europe grew by 38% in 2022.', enSource).verdict, 'supported');
});

test('a figure or a name the source lacks makes a claim unsupported or weak; other words make it unsupported', (t) => {
  const made = support('据估计，钠离子电池市场规模到2031年将达到9876亿元。', zhSource);
  t.is(made.verdict, 'unsupported');
  t.deepEqual(made.missing, ['2031', '9876']);
  t.is(support('Heat pump sales in Europe grew by 45% in 2022.', enSource).verdict, 'unsupported');
  t.is(support('Heat pump sales in Europe grew, led by Spain and Italy.', enSource).verdict, 'weak');
  t.is(support('护理人员缺口仍然很大。', zhSource).verdict, 'unsupported');
  t.is(support('They sold 1,200 units.', passagesOf('They sold 1200 units last year.')).verdict, 'supported');
});

const sources = new Map([
  [1, zhSource],
  [2, zhOther],
]);
const link = (n: number) => `[[${n}]](https://s${n}.example/)`;

test('a dangling number is taken out; a claim another source says is pointed at it', (t) => {
  const text = '护理人员缺口仍然很大[1]。钠离子电池不依赖锂资源[7]。';
  const sentences = citedSentences(text);
  const found = findings(sentences, sources);
  t.deepEqual(
    found.map((finding) => [finding.n, finding.verdict, finding.instead]),
    [
      [1, 'unsupported', 2],
      [7, 'dangling', 1],
    ],
  );
  const rebuilt = rebuild(text, sentences, found, new Map(), sources, link, 'zh');
  t.is(rebuilt.text, `护理人员缺口仍然很大${link(2)}。钠离子电池不依赖锂资源${link(1)}。`);
  t.deepEqual(
    rebuilt.checks.map((check) => [check.n, check.offset, check.verdict, check.action]),
    [
      [2, 0, 'supported', 'repaired'],
      [1, rebuilt.text.indexOf('钠离子'), 'supported', 'repaired'],
    ],
  );
});

test('a dangling number no source explains is removed with its space', (t) => {
  const text = 'Heat pumps are popular in cold places [9]. Sales fell in 2023 [1].';
  const sentences = citedSentences(text);
  const found = findings(sentences, new Map([[1, enSource]]));
  const rebuilt = rebuild(text, sentences, found, new Map(), new Map([[1, enSource]]), link, 'en');
  t.is(rebuilt.text, `Heat pumps are popular in cold places. Sales fell in 2023 ${link(1)}.`);
  t.deepEqual(
    rebuilt.checks.map((check) => [check.n, check.verdict, check.action]),
    [
      [9, 'dangling', 'removed'],
      [1, 'supported', 'kept'],
    ],
  );
});

test('an unsupported claim is marked with its reason, in the report language, unless a rewrite holds', (t) => {
  const text = '据估计，钠离子电池市场规模到2031年将达到9876亿元[1]。';
  const sentences = citedSentences(text);
  const found = findings(sentences, sources);
  const marked = rebuild(text, sentences, found, new Map(), sources, link, 'zh');
  t.is(marked.text, `据估计，钠离子电池市场规模到2031年将达到9876亿元${link(1)}⚠〔待核实：来源 1 中没有“2031”“9876”〕。`);
  t.deepEqual(marked.checks[0], { n: 1, offset: 0, verdict: 'unsupported', action: 'marked', excerpt: marked.checks[0]!.excerpt, missing: ['2031', '9876'] });
  t.true(marked.checks[0]!.excerpt.length > 0);

  const badRewrite = new Map<Finding, Ruling>([[found[0]!, { supported: false, rewrite: '钠离子电池市场到2031年规模巨大。' }]]);
  t.true(rebuild(text, sentences, found, badRewrite, sources, link, 'zh').text.includes('⚠〔待核实'));

  const goodRewrite = new Map<Finding, Ruling>([[found[0]!, { supported: false, rewrite: '业内预计钠离子电池成本比磷酸铁锂电池低约30%。' }]]);
  const repaired = rebuild(text, sentences, found, goodRewrite, sources, link, 'zh');
  t.is(repaired.text, `业内预计钠离子电池成本比磷酸铁锂电池低约30%${link(1)}。`);
  t.is(repaired.checks[0]!.action, 'repaired');
  t.is(repaired.checks[0]!.verdict, 'supported');
});

test("a model's judgement settles a weak claim and lifts an unsupported one only to weak", (t) => {
  const text = 'Heat pump sales in Europe grew, led by Spain and Italy [1]. Heat pump sales in Europe grew by 45% in 2022 [1].';
  const sentences = citedSentences(text);
  const en = new Map([[1, enSource]]);
  const found = findings(sentences, en);
  t.deepEqual(
    found.map((finding) => finding.verdict),
    ['weak', 'unsupported'],
  );
  const unjudged = rebuild(text, sentences, found, new Map(), en, link, 'en');
  t.deepEqual(
    unjudged.checks.map((check) => [check.verdict, check.action]),
    [
      ['weak', 'kept'],
      ['unsupported', 'marked'],
    ],
  );
  t.true(unjudged.text.includes('⚠ (unverified: source 1 does not mention "45")'));
  const judged = rebuild(
    text,
    sentences,
    found,
    new Map<Finding, Ruling>([
      [found[0]!, { supported: false }],
      [found[1]!, { supported: true }],
    ]),
    en,
    link,
    'en',
  );
  t.deepEqual(
    judged.checks.map((check) => [check.verdict, check.action]),
    [
      ['unsupported', 'marked'],
      ['weak', 'kept'],
    ],
  );
  t.true(judged.text.includes('⚠ (unverified: source 1 does not mention "Spain")'));
});

test('the marks are what readers and the lab recognise, and a claim is read without them', (t) => {
  const zh = markFor('zh', 3, []);
  const en = markFor('en', 3, ['42']);
  t.is(zh, '⚠〔待核实：来源 3 没有支持这句话的内容〕');
  t.is(`a${zh}b${en}c`.replace(MARK_PATTERN, ''), 'abc');
  t.is(citedSentences(`成本更低[1]${zh}。`)[0]!.claim, '成本更低。');
});

test('checked again, a marked claim is not marked twice; a sentence carried over keeps its checks where it now stands', (t) => {
  const once = rebuild('钠离子电池市场规模将达到9876亿元[1]。', citedSentences('钠离子电池市场规模将达到9876亿元[1]。'), findings(citedSentences('钠离子电池市场规模将达到9876亿元[1]。'), sources), new Map(), sources, link, 'zh');
  const text = `新增一句：钠离子电池不依赖锂资源[1]。${once.text}`;
  const sentences = citedSentences(text);
  const again = rebuild(text, sentences, findings(sentences, sources), new Map(), sources, link, 'zh');
  t.is(again.text.match(MARK_PATTERN)?.length, 1, 'the mark it had is its mark');
  t.deepEqual(again.checks.at(-1), { ...once.checks[0]!, offset: again.text.indexOf('钠离子电池市场') });

  const carried = rebuild(text, sentences, findings(sentences.slice(0, 1), sources), new Map(), sources, link, 'zh', new Map([[1, [{ n: 1, verdict: 'weak', action: 'kept', excerpt: '' }]]]));
  t.is(carried.text.slice(carried.text.indexOf('钠离子电池市场')), once.text, 'a carried sentence is left as it is');
  t.deepEqual(carried.checks.at(-1), { n: 1, verdict: 'weak', action: 'kept', excerpt: '', offset: carried.text.indexOf('钠离子电池市场') });
});

test('a source with no stored text cannot say no: its citation is weak, never marked; a citation left with no words is taken out', (t) => {
  const text = '钠离子电池不依赖锂资源[3]。\n- [1]\n';
  const sentences = citedSentences(text);
  const found = findings(sentences, new Map([...sources, [3, passagesOf('')]]));
  t.like(found[0], { n: 3, verdict: 'weak', excerpt: '' });
  t.like(found[1], { n: 1, bare: true });
  const rebuilt = rebuild(text, sentences, found, new Map(), sources, link, 'zh');
  t.is(rebuilt.text, `钠离子电池不依赖锂资源${link(3)}。\n-\n`);
  t.deepEqual(
    rebuilt.checks.map((check) => [check.n, check.verdict, check.action]),
    [
      [3, 'weak', 'kept'],
      [1, 'unsupported', 'removed'],
    ],
  );
});

test('the sentences an edit touched: whole, with the citations written after them', (t) => {
  const text = '第一句[1]。第二句有改动[2]。第三句[3]。';
  const at = text.indexOf('有改动');
  const span = sentencesAround(text, at, at + 3);
  t.is(text.slice(span.start, span.end), '第二句有改动[2]。');
  const inserted = '第一句[1]。第二句[2]。新的第三句[3]。';
  const added = sentencesAround(inserted, inserted.indexOf('新的'), inserted.indexOf('第三句'));
  t.is(inserted.slice(added.start, added.end), '新的第三句[3]。', 'text put before a sentence touches that sentence alone');
  const boundary = text.indexOf('第三句');
  const deleted = sentencesAround(text, boundary, boundary);
  t.is(deleted.start, deleted.end, 'a sentence deleted whole leaves none touched');
});
