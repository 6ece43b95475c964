import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { LocalCorpus } from '@scriptorium/infra/search/local';
import { countWords, createPlatformTools } from './platform.ts';
import { runPlatformTools, ToolError } from './registry.ts';

const dir = mkdtempSync(join(tmpdir(), 'tools-'));
const corpus = new LocalCorpus(join(dir, 'search.sqlite'));
corpus.upsert({ id: 'n1', userId: 'alice', kind: 'note', title: '固态电池笔记', text: '固态电池的能量密度更高。' });
corpus.upsert({ id: 'c1', userId: 'alice', kind: 'cognition', title: '电池认知', url: 'https://example.com/c1', text: '半固态电池先落地。' });
corpus.upsert({ id: 'b1', userId: 'bob', kind: 'note', title: '鲍勃的固态电池笔记', text: '固态电池的秘密。' });

test.after.always(() => {
  corpus.close();
  rmSync(dir, { recursive: true, force: true });
});

const clock = () => new Date('2025-01-15T16:30:05Z');
const tools = createPlatformTools({ corpus, clock });
const alice = { userId: 'alice' };

test('the registry lists the platform tools with Chinese descriptions', (t) => {
  const names = tools.list().map((tool) => tool.name);
  t.deepEqual(names, ['calculator', 'unit_convert', 'current_time', 'word_count', 'local_search']);
  for (const tool of tools.list()) t.regex(tool.description, /\p{Script=Han}/u);
  t.false(createPlatformTools().has('local_search'));
});

test('calculator answers and explains a refusal', async (t) => {
  t.deepEqual((await tools.run('calculator', { expression: '(1 + 2) * 3^2' }, alice)).data, { expression: '(1 + 2) * 3^2', result: 27 });
  const error = await t.throwsAsync(tools.run('calculator', { expression: '1/0' }, alice), { instanceOf: ToolError });
  t.is(error?.message, '除数不能为零');
});

test('unit_convert converts and refuses mixed dimensions', async (t) => {
  t.deepEqual((await tools.run('unit_convert', { value: 3, from: '公里', to: 'm' }, alice)).data, { input: { value: 3, unit: 'km' }, output: { value: 3000, unit: 'm' }, dimension: 'length' });
  t.is((await t.throwsAsync(tools.run('unit_convert', { value: 3, from: '斤', to: 'm' }, alice), { instanceOf: ToolError }))?.reason, 'failed');
});

test('current_time gives the local time in the asked time zone, Beijing time by default', async (t) => {
  t.deepEqual((await tools.run('current_time', {}, alice)).data, { time_zone: 'Asia/Shanghai', local: '2025-01-16 00:30:05', weekday: '星期四', utc_offset: '+08:00', iso: '2025-01-15T16:30:05.000Z' });
  t.like((await tools.run('current_time', { timeZone: 'America/New_York' }, alice)).data, { local: '2025-01-15 11:30:05', weekday: '星期三', utc_offset: '-05:00' });
  t.like((await tools.run('current_time', { timeZone: 'UTC' }, alice)).data, { local: '2025-01-15 16:30:05', utc_offset: '+00:00' });
  const error = await t.throwsAsync(tools.run('current_time', { timeZone: 'Mars/Olympus' }, alice), { instanceOf: ToolError });
  t.is(error?.reason, 'invalid_args');
  t.true(error?.message.includes('未知的时区'));
});

test('word_count counts each CJK character and each Latin word', (t) => {
  // 我爱 和 第二段 日本語 한국어: 12 characters; Node.js TypeScript 5.0: 3 words.
  t.deepEqual(countWords('我爱 Node.js 和 TypeScript 5.0！\n\n第二段：日本語、한국어。'), {
    words: 15,
    cjk_characters: 12,
    latin_words: 3,
    characters: 36,
    characters_with_spaces: 42,
    paragraphs: 2,
  });
  t.deepEqual(countWords(''), { words: 0, cjk_characters: 0, latin_words: 0, characters: 0, characters_with_spaces: 0, paragraphs: 0 });
});

test('word_count runs as a tool', async (t) => {
  t.like((await tools.run('word_count', { text: '固态电池 solid state' }, alice)).data, { words: 6, cjk_characters: 4, latin_words: 2 });
});

test("local_search searches only the caller's material, by kind when asked, and cites what it found", async (t) => {
  const result = await tools.run('local_search', { query: '固态电池' }, alice);
  const data = result.data as { hits: Array<{ id: string }> };
  t.deepEqual(data.hits.map((hit) => hit.id).sort(), ['c1', 'n1']);
  t.is(result.count, 2);
  t.deepEqual(result.sources?.find((source) => source.url), { title: '电池认知', url: 'https://example.com/c1' });
  const cognition = await tools.run('local_search', { query: '电池', kinds: ['cognition'] }, alice);
  t.deepEqual((cognition.data as { hits: Array<{ id: string }> }).hits.map((hit) => hit.id), ['c1']);
  const bob = await tools.run('local_search', { query: '固态电池' }, { userId: 'bob' });
  t.deepEqual((bob.data as { hits: Array<{ id: string }> }).hits.map((hit) => hit.id), ['b1']);
  t.is((await t.throwsAsync(tools.run('local_search', { query: '  ' }, alice), { instanceOf: ToolError }))?.reason, 'invalid_args');
});

test('a research step running several platform tools gets the spec item', async (t) => {
  const item = await runPlatformTools(
    tools,
    [
      { name: 'local_search', args: { query: '固态电池' } },
      { name: 'calculator', args: { expression: '350 * 1.2' } },
      { name: 'unit_convert', args: { value: 1, from: 'kg', to: '斤' } },
    ],
    alice,
  );
  t.like(item, { tool_count: 3, tools: ['local_search', 'calculator', 'unit_convert'], total_results: 4, sources_status: { local_search: 'ok', calculator: 'ok', unit_convert: 'ok' } });
  t.is(item.sources.length, 2);
  t.true(item.sources.every((source) => source.tool === 'local_search'));
  t.like(item.results_by_tool.calculator?.[0], { ok: true, data: { result: 420 } });
});
