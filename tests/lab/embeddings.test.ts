import test from 'ava';
import { OpenAIEmbeddings } from '@scriptorium/infra/embeddings/openai';
import { ChunkIndex } from '@scriptorium/workers/agents/deep_cognition/chunks';
import { SourceBook } from '@scriptorium/workers/agents/deep_cognition/sources';
import { startScriptedModel } from './model.ts';

const FACT = 'At minus 20 degrees the cells keep about 90% of their capacity, well ahead of LFP cells.';
const PAGES = [
  { n: 1, text: 'The annual performance review covers staff, budgets and the weather station upgrade.' },
  { n: 2, text: FACT },
  { n: 3, text: 'Cathode materials follow three routes: layered oxides, polyanions and Prussian blue analogues.' },
];
const QUERY = 'cold weather performance';

test('over the real protocol, a chunk found by meaning that BM25 misses reaches the call, fused with what BM25 finds', async (t) => {
  const model = await startScriptedModel();
  t.teardown(() => model.close());
  const embeddings = new OpenAIEmbeddings({ baseUrl: model.url, model: 'lab-embeddings', batchSize: 2 });

  const words = new ChunkIndex(PAGES).best(QUERY, 2);
  t.false(
    words.some((chunk) => chunk.n === 2),
    'the fact shares no word with the question: BM25 alone does not find it',
  );
  t.true(words.some((chunk) => chunk.n === 1), 'BM25 finds the page that shares words');

  const both = new ChunkIndex(PAGES);
  await both.embed(embeddings, [QUERY]);
  t.is(model.embedded, PAGES.length + 1, 'every chunk and the query went to /v1/embeddings, in batches of 2');
  const fused = both.best(QUERY, 2);
  t.deepEqual(fused.map((chunk) => chunk.n).sort(), [1, 2], 'by meaning, the fact; by words, the page BM25 found');
});

test("a source book embedded for a section's focus gives that section the fact BM25 alone would not", async (t) => {
  const model = await startScriptedModel();
  t.teardown(() => model.close());
  const book = new SourceBook();
  for (const page of PAGES) book.add({ title: `page ${page.n}`, url: `https://a.test/${page.n}`, text: page.text, read: true });
  t.is(book.context(QUERY, 'en')[1]!.text, '', 'BM25 alone: nothing of source 2');
  await book.embed(new OpenAIEmbeddings({ baseUrl: model.url, model: 'lab-embeddings' }), [QUERY]);
  t.is(book.context(QUERY, 'en')[1]!.text, FACT);
});
