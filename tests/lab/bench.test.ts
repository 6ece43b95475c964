import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { PageFetcher } from '@scriptorium/infra/fetch/fetcher';
import { fact, readTasks, runBenchmark } from './bench.ts';
import { TOPICS } from './corpus.ts';
import { startScriptedModel } from './model.ts';
import { startLabWeb } from './web.ts';

test('a DeepResearch Bench task file runs through the product and is scored RACE- and FACT-like by the judge', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-bench-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const [zh, en] = [TOPICS[0]!, TOPICS[3]!];
  const file = join(dir, 'tasks.jsonl');
  writeFileSync(
    file,
    [
      JSON.stringify({ id: 1, topic: 'Energy', language: 'zh', prompt: zh.question, article: `# 参考报告\n\n${zh.facts.map((entry) => entry.statement).join('')}` }),
      '',
      JSON.stringify({ id: 2, topic: 'Energy', language: 'en', prompt: en.question }),
    ].join('\n'),
  );
  t.deepEqual(
    readTasks(file).map((task) => [task.id, task.language, 'reference' in task]),
    [
      ['1', 'zh', true],
      ['2', 'en', false],
    ],
  );

  const model = await startScriptedModel();
  t.teardown(() => model.close());
  const web = await startLabWeb();
  t.teardown(() => web.close());
  const results = await runBenchmark(file, {
    env: { LLM_BASE_URL: model.url, LLM_MODEL: 'lab-scripted', SEARCH_URL: web.searchUrl, FETCH_ALLOW_HOSTS: web.pagesHost },
    judge: { baseUrl: model.url, model: 'lab-judge' },
    timeoutMs: 60_000,
  });
  t.is(results.length, 2);
  for (const result of results) {
    t.true(result.completed, result.id);
    t.true(result.race !== null && result.race.score > 0 && result.race.score < 1, result.id);
    t.true(result.fact.pairs > 0, result.id);
    // The scripted model makes no mistakes here: every statement it cites is on the page it cites.
    t.is(result.fact.supported, result.fact.pairs, result.id);
  }
  t.truthy(results[0]!.race?.reference, 'the task with a reference report is scored against it');
  t.is(results[1]!.race?.reference, undefined);
  t.true(model.calls.some((call) => call.kind === 'race-weights') && model.calls.some((call) => call.kind === 'fact-check'));
});

test('FACT counts a statement its page does not make as unsupported', async (t) => {
  const model = await startScriptedModel();
  t.teardown(() => model.close());
  const web = await startLabWeb();
  t.teardown(() => web.close());
  const fetcher = new PageFetcher({ allowHosts: [web.pagesHost] });
  t.teardown(() => fetcher.close());
  const page = web.urlOf('/heatpumps/market-report');
  const report = [
    `About 3.0 million heat pumps were sold in Europe in 2022, a record year for the market[[1]](${page}).`,
    `Heat pumps will heat nine in ten European homes by 2027[[1]](${page}).`,
    '',
    '## Sources',
    '',
    `1. [European Heat Pump Market Report 2024](${page})`,
  ].join('\n');
  t.deepEqual(await fact({ baseUrl: model.url, model: 'lab-judge' }, report, fetcher), { pairs: 2, supported: 1, accuracy: 0.5 });
});
