import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { SearchPort } from './port.ts';
import { LocalCorpus, LocalSearch, queryTerms, type CorpusDocument } from './local.ts';

const dirs: string[] = [];

function corpus(documents: CorpusDocument[] = []): LocalCorpus {
  const dir = mkdtempSync(join(tmpdir(), 'corpus-'));
  dirs.push(dir);
  const index = new LocalCorpus(join(dir, 'nested', 'search.sqlite'));
  for (const document of documents) index.upsert(document);
  return index;
}

test.after.always(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const alice = 'user-alice';
const bob = 'user-bob';

const library: CorpusDocument[] = [
  { id: 'n1', userId: alice, kind: 'note', title: '固态电池调研笔记', text: '固态电池用固态电解质取代液态电解液，能量密度更高。主要难点是成本和界面稳定性。' },
  { id: 'n2', userId: alice, kind: 'note', title: '周末菜谱', text: '红烧肉的做法：五花肉切块，焯水后加糖炒色。' },
  { id: 'u1', userId: alice, kind: 'upload', title: 'battery-report.pdf', url: 'https://files.example/battery-report.pdf', text: 'Solid-state batteries replace the liquid electrolyte with a solid one. Costs remain high.' },
  { id: 'c1', userId: alice, kind: 'cognition', title: '半固态电池是过渡方案', text: '在全固态电池量产之前，半固态电池会先占据一部分市场。' },
  { id: 's1', userId: alice, kind: 'source', title: '钠离子电池的进展', url: 'https://news.example/sodium', text: '钠离子电池成本低，适合储能。AI 芯片的功耗也在上升。' },
  { id: 'b1', userId: bob, kind: 'note', title: '固态电池——鲍勃的私人笔记', text: '固态电池的秘密配方。' },
];

test('Chinese queries find Chinese text, best match first, with a snippet around the match', (t) => {
  const index = corpus(library);
  const hits = index.search(alice, '固态电池的成本', 10);
  t.is(hits[0]?.id, 'n1');
  t.true(hits[0]?.snippet.includes('固态电池'));
  t.false(hits.some((hit) => hit.id === 'n2'));
  index.close();
});

test('a user never sees another user’s documents', (t) => {
  const index = corpus(library);
  const alices = index.search(alice, '固态电池', 10).map((hit) => hit.id);
  t.false(alices.includes('b1'));
  t.true(alices.includes('n1'));
  t.deepEqual(
    index.search(bob, '固态电池', 10).map((hit) => hit.id),
    ['b1'],
  );
  t.deepEqual(index.search(bob, '红烧肉', 10), []);
  t.deepEqual(index.search('user-nobody', '固态电池', 10), []);
  index.close();
});

test('a long Chinese run without spaces matches text that has only part of it', (t) => {
  const index = corpus(library);
  // No document says 固态电池产业化, but n1 and c1 say 固态电池.
  const ids = index.search(alice, '固态电池产业化前景', 10).map((hit) => hit.id);
  t.true(ids.includes('n1'));
  t.true(ids.includes('c1'));
  index.close();
});

test('two-character words and short Latin words fall back to LIKE; Latin words match at word starts only', (t) => {
  const index = corpus(library);
  t.deepEqual(
    index.search(alice, '储能', 10).map((hit) => hit.id),
    ['s1'],
  );
  t.deepEqual(
    index.search(alice, 'AI', 10).map((hit) => hit.id),
    ['s1'],
  );
  t.deepEqual(
    index.search(alice, '肉', 10).map((hit) => hit.id),
    ['n2'],
  );
  index.close();
});

test('LIKE wildcards in a query are taken literally', (t) => {
  const index = corpus([...library, { id: 'p1', userId: alice, kind: 'note', title: '折扣', text: '全场 5% 优惠' }]);
  t.deepEqual(
    index.search(alice, '5%', 10).map((hit) => hit.id),
    ['p1'],
  );
  t.deepEqual(index.search(alice, '_', 10), []);
  index.close();
});

test('English is case-insensitive and plural forms meet', (t) => {
  const index = corpus(library);
  t.deepEqual(
    index.search(alice, 'Battery COSTS', 10).map((hit) => hit.id),
    ['u1'],
  );
  index.close();
});

test('mixed Chinese and English queries: documents covering more terms rank first', (t) => {
  const index = corpus(library);
  const ids = index.search(alice, '钠离子电池 AI 芯片', 10).map((hit) => hit.id);
  t.is(ids[0], 's1');
  index.close();
});

test('the title weighs more than the text', (t) => {
  const index = corpus([
    { id: 'a', userId: alice, kind: 'note', title: '杂记', text: '今天读到一篇关于量子计算的文章，内容很长很长。' },
    { id: 'b', userId: alice, kind: 'note', title: '量子计算', text: '今天读到一篇文章，内容很长很长。' },
  ]);
  t.deepEqual(
    index.search(alice, '量子计算', 10).map((hit) => hit.id),
    ['b', 'a'],
  );
  index.close();
});

test('upsert replaces a document and remove deletes it from the index', (t) => {
  const index = corpus(library);
  index.upsert({ id: 'n2', userId: alice, kind: 'note', title: '周末计划', text: '去图书馆查量子计算的资料。' });
  t.deepEqual(index.search(alice, '红烧肉', 10), []);
  t.deepEqual(
    index.search(alice, '量子计算', 10).map((hit) => hit.id),
    ['n2'],
  );
  index.remove('n2');
  t.deepEqual(index.search(alice, '量子计算', 10), []);
  index.remove('never-existed');
  index.close();
});

test('kinds narrow the search and limit caps it', (t) => {
  const index = corpus(library);
  t.deepEqual(
    index.search(alice, '电池', 10, { kinds: ['cognition'] }).map((hit) => hit.id),
    ['c1'],
  );
  t.is(index.search(alice, '电池', 2).length, 2);
  t.deepEqual(index.search(alice, '电池', 0), []);
  index.close();
});

test('queries with nothing to search for return nothing', (t) => {
  const index = corpus(library);
  t.deepEqual(index.search(alice, '', 10), []);
  t.deepEqual(index.search(alice, '？！…', 10), []);
  t.deepEqual(index.search(alice, '"unbalanced OR', 10), []);
  index.close();
});

test('the index survives reopening the file', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'corpus-'));
  dirs.push(dir);
  const path = join(dir, 'search.sqlite');
  const first = new LocalCorpus(path);
  first.upsert(library[0]!);
  first.close();
  const second = new LocalCorpus(path);
  t.deepEqual(
    second.search(alice, '固态电池', 10).map((hit) => hit.id),
    ['n1'],
  );
  second.close();
});

test('snippets are cut around the match with ellipses', (t) => {
  const long = `${'无关的内容。'.repeat(40)}这里提到了目标关键词量子纠缠。${'其他内容。'.repeat(40)}`;
  const index = corpus([{ id: 'l', userId: alice, kind: 'upload', title: '长文', text: long }]);
  const [hit] = index.search(alice, '量子纠缠', 1);
  t.true(hit?.snippet.startsWith('…'));
  t.true(hit?.snippet.endsWith('…'));
  t.true(hit?.snippet.includes('量子纠缠'));
  index.close();
});

test('queryTerms drops question words and particles, splits scripts, keeps the topic', (t) => {
  t.deepEqual(queryTerms('请问固态电池的成本是多少？'), ['固态电池', '成本是多少']);
  t.deepEqual(queryTerms('What is the cost of solid-state batteries'), ['cost', 'solid', 'state', 'batter']);
  t.deepEqual(queryTerms('GPT-4 与 Claude 的区别'), ['gpt', '4', 'claude', '区别']);
  t.deepEqual(queryTerms('的'), []);
  t.deepEqual(queryTerms('肉'), ['肉']);
  t.deepEqual(queryTerms('the'), ['the']);
});

test('LocalSearch answers like a web search, offline, with the kind as source', async (t) => {
  const index = corpus(library);
  const search = new LocalSearch(index);
  t.true(search.offline);
  const hits = await search.search('电池', { userId: alice, limit: 10 });
  const note = hits.find((hit) => hit.id === 'n1');
  t.like(note, { source: 'note', url: 'note:n1', title: '固态电池调研笔记' });
  t.like(
    hits.find((hit) => hit.id === 's1'),
    { source: 'source', url: 'https://news.example/sodium' },
  );
  await t.throwsAsync(search.search('电池'), { instanceOf: TypeError });
  // What the research agents take as their local search.
  const port: SearchPort = search;
  t.is(port, search);
  const cognition = new LocalSearch(index, ['cognition']);
  t.deepEqual(
    (await cognition.search('电池', { userId: alice })).map((hit) => hit.id),
    ['c1'],
  );
  const aborted = AbortSignal.abort(new Error('stop'));
  await t.throwsAsync(search.search('电池', { userId: alice, signal: aborted }), { message: 'stop' });
  index.close();
});
