/**
 * `npm run bench`: every benchmark in turn, each in a process of its own. They print numbers and
 * ratios and assert no timing, so the exit code is non-zero only when one of them fails (a broken
 * setup or a correctness check). A process each, because in a shared one a bench ran in the heap the
 * benches before it left: the projection rebuild, which allocates a lot, measured 0.27× of the scan
 * right after the event-store bench and 0.47–0.49× on its own.
 *
 * `-- --short`: every bench at a size that only shows it runs to the end (tests/bench/short.ts);
 * `-- --only load,fanout`: only the benches named.
 */
import { spawnSync } from 'node:child_process';

const benches: Array<[string, string]> = [
  ['eventstore', 'eventstore.ts'],
  ['projections', 'projections.ts'],
  ['streaming', 'streaming.ts'],
  ['token latency', 'tokenLatency.ts'],
  ['fanout', 'fanout.ts'],
  ['load', 'load.ts'],
  ['postgres', 'postgres.ts'],
  ['postgres writers', 'postgresWriters.ts'],
  ['research starts', 'researchStarts.ts'],
  ['canvas', 'canvas.ts'],
  ['chat stream', 'chatStream.ts'],
  ['engineer nodes', 'engineerNodes.ts'],
  ['lighthouse', 'lighthouse.ts'],
];

const args = process.argv.slice(2);
const short = args.includes('--short');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1]?.split(',') : undefined;
const unknown = only?.filter((name) => !benches.some(([bench]) => bench === name));
if (unknown?.length) throw new Error(`no bench named ${unknown.join(', ')}; the benches: ${benches.map(([name]) => name).join(', ')}`);

let failed = 0;
for (const [name, file] of benches.filter(([bench]) => !only || only.includes(bench))) {
  console.log(`\n=== ${name} ===`);
  const started = performance.now();
  // The same node with the same loader flags (tsx's) as this process. It exits once `run` is done:
  // a bench's clients may leave sockets or timers behind that would keep it alive.
  const entry = `const { run } = await import(${JSON.stringify(new URL(file, import.meta.url).href)}); await run(); process.exit(0);`;
  const bench = spawnSync(process.execPath, [...process.execArgv, '--input-type=module', '--eval', entry], { stdio: 'inherit', env: { ...process.env, ...(short && { BENCH_SHORT: '1' }) } });
  if (bench.status === 0) {
    console.log(`(${name}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } else {
    failed += 1;
    console.error(`${name} failed: ${bench.error?.message ?? (bench.signal ? `killed by ${bench.signal}` : `exit code ${bench.status}`)}`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
