/**
 * The corpus suite in CI: every task through the product as a user, scored against the truth and
 * compared with the committed baseline (tests/lab/baseline.json). A change that makes research
 * worse fails here; a change that makes it better updates the baseline with
 * `npm run eval -- --update-baseline`.
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import { runCorpus } from './corpusSuite.ts';
import { startLab } from './lab.ts';
import { regressions, summarise, table, type Summary } from './summary.ts';

const stored = JSON.parse(readFileSync(new URL('./baseline.json', import.meta.url), 'utf8')) as { mistakeRate: number; seed: number; summary: Summary };

test('the corpus suite completes every task and is no worse than the baseline', async (t) => {
  const lab = await startLab({ seed: stored.seed, mistakeRate: stored.mistakeRate });
  t.teardown(() => lab.stop());
  const results = await runCorpus(lab, { timeoutMs: 120_000 });
  const summary = summarise(results);
  t.log(`\n${table(results)}`);
  t.is(summary.completed, summary.tasks, 'every task completed');
  t.deepEqual(regressions(stored.summary, summary), []);
});
