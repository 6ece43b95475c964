/**
 * `npm run bench`: every benchmark in turn. They print numbers and ratios and assert no timing, so
 * the exit code is non-zero only when one of them throws (a broken setup or a correctness check).
 */
import { run as canvas } from './canvas.ts';
import { run as chatStream } from './chatStream.ts';
import { run as engineerNodes } from './engineerNodes.ts';
import { run as eventstore } from './eventstore.ts';
import { run as fanout } from './fanout.ts';
import { run as lighthouse } from './lighthouse.ts';
import { run as load } from './load.ts';
import { run as postgres } from './postgres.ts';
import { run as projections } from './projections.ts';
import { run as streaming } from './streaming.ts';
import { run as tokenLatency } from './tokenLatency.ts';

const benches: Array<[string, () => Promise<void>]> = [
  ['eventstore', eventstore],
  ['projections', projections],
  ['streaming', streaming],
  ['token latency', tokenLatency],
  ['fanout', fanout],
  ['load', load],
  ['postgres', postgres],
  ['canvas', canvas],
  ['chat stream', chatStream],
  ['engineer nodes', engineerNodes],
  ['lighthouse', lighthouse],
];

let failed = 0;
for (const [name, run] of benches) {
  console.log(`\n=== ${name} ===`);
  const started = performance.now();
  try {
    await run();
    console.log(`(${name}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failed += 1;
    console.error(`${name} failed:`, error);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
