/**
 * `npm run eval`: the research lab.
 *
 *   npm run eval                          the corpus suite, its JSONL and table
 *   npm run eval -- --baseline            … compared with tests/lab/baseline.json; exits 1 on a regression
 *   npm run eval -- --update-baseline     … and stores the result as the new baseline
 *   npm run eval -- --faults              the fault suite over the same tasks
 *   npm run eval -- --tasks <file.jsonl>  a DeepResearch Bench task file against the configured model and judge
 *
 * Options: --realistic (the scripted model at a real model's speed), --mistakes <rate> and
 * --seed <n> (by default the baseline's: 0.15 and 27), --only <task,task>, --out <file.jsonl>,
 * --fault <name,name>, --revisions (each report then taken deeper and revised by feedback, each
 * revision measured in a table of its own), --no-rewrites (the citation judge never restates a claim, so what it finds
 * unsupported stays marked), --embeddings (the product retrieves chunks with the scripted model's
 * `/v1/embeddings` as well as BM25).
 */
import { mkdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { killProducts } from './drive.ts';
import { runCorpus } from './corpusSuite.ts';
import { startLab } from './lab.ts';
import { regressions, summarise, table, type Summary } from './summary.ts';
import { FAULTS, faultTable, runFaults } from './faults.ts';
import { runBenchmark, benchTable } from './bench.ts';

const BASELINE_FILE = new URL('./baseline.json', import.meta.url);
const REALISTIC = { firstTokenMs: 800, tokensPerSecond: 40 };

const { values } = parseArgs({
  options: {
    baseline: { type: 'boolean', default: false },
    'update-baseline': { type: 'boolean', default: false },
    faults: { type: 'boolean', default: false },
    fault: { type: 'string' },
    tasks: { type: 'string' },
    realistic: { type: 'boolean', default: false },
    mistakes: { type: 'string' },
    seed: { type: 'string' },
    only: { type: 'string' },
    out: { type: 'string' },
    'no-rewrites': { type: 'boolean', default: false },
    embeddings: { type: 'boolean', default: false },
    revisions: { type: 'boolean', default: false },
  },
});

process.on('exit', killProducts);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killProducts();
    process.exit(130);
  });
}

const suite = values.tasks ? 'bench' : values.faults ? 'faults' : 'corpus';
const out = values.out ?? join(tmpdir(), 'scriptorium-lab', `${suite}-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, '');
const record = (line: unknown) => appendFileSync(out, `${JSON.stringify(line)}\n`);

async function main(): Promise<number> {
  if (values.tasks) {
    const results = await runBenchmark(values.tasks, { onResult: record, log: (line) => console.error(line) });
    console.log(benchTable(results));
    console.log(`\nJSONL: ${out}`);
    return 0;
  }
  const only = values.only?.split(',').map((name) => name.trim());
  // Unless told otherwise, the model makes the mistakes the baseline was measured with, so the two compare.
  const stored = JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as { mistakeRate: number; seed: number; summary: Summary };
  const mistakeRate = values.mistakes === undefined ? stored.mistakeRate : Number(values.mistakes);
  const seed = values.seed === undefined ? stored.seed : Number(values.seed);
  const lab = await startLab({ seed, mistakeRate, rewrites: !values['no-rewrites'], speed: values.realistic ? REALISTIC : null, embeddings: values.embeddings });
  try {
    if (values.faults) {
      const names = values.fault?.split(',').map((name) => name.trim());
      const results = await runFaults(lab, { ...(names && { names }), ...(only && { only }), onResult: (result) => {
        record(result);
        console.error(`${result.fault} on ${result.task}: ${result.verdict}`);
      } });
      console.log(faultTable(results));
      console.log(`\n${FAULTS.length} faults known; JSONL: ${out}`);
      return 0;
    }
    const measured = await runCorpus(lab, { ...(only && { only }), revisions: values.revisions, onResult: (result) => {
      record(result);
      console.error(`${result.task}${result.stage ? ` (${result.stage})` : ''}: ${result.outcome} in ${(result.wallMs / 1000).toFixed(1)} s`);
    } });
    // The first runs are what the baseline holds; revisions are their own table.
    const results = measured.filter((result) => !result.stage);
    console.log(table(results));
    for (const stage of ['continue', 'feedback'] as const) {
      const revised = measured.filter((result) => result.stage === stage);
      if (revised.length > 0) console.log(`\nRevisions (${stage}):\n${table(revised)}`);
    }
    const summary = summarise(results);
    record({ summary });
    console.log(`\nJSONL: ${out}`);
    if (values['update-baseline']) {
      writeFileSync(BASELINE_FILE, `${JSON.stringify({ measured: new Date().toISOString().slice(0, 10), mistakeRate, seed, summary }, null, 2)}\n`);
      console.log(`baseline written to ${BASELINE_FILE.pathname}`);
    }
    if (values.baseline) {
      const found = regressions(stored.summary, summary);
      for (const regression of found) console.log(`REGRESSION ${regression.key}: baseline ${regression.baseline}, now ${regression.now}`);
      if (found.length > 0) return 1;
      console.log('no regression against the baseline');
    }
    return 0;
  } finally {
    await lab.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    killProducts();
    process.exit(2);
  },
);
