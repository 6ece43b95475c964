/**
 * `npm run test:stress`: runs AVA (with the arguments given) while `--cpu-load <n>` threads spin for
 * the whole run, so that the suite proves it passes on a machine whose cores are taken (issue 32:
 * tests must not fail by the clock). The threads belong to this process and end with it however it
 * ends.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { Worker } from 'node:worker_threads';

const args = process.argv.slice(2);
const loadAt = args.indexOf('--cpu-load');
const load = loadAt === -1 ? 0 : Number(args.splice(loadAt, 2)[1]);
if (!Number.isInteger(load) || load < 0) {
  console.error('--cpu-load takes a number of threads');
  process.exit(2);
}

const spinners = Array.from({ length: load }, () => new Worker('for (;;);', { eval: true }));
if (load > 0) console.log(`suite: ${load} threads keep ${load} cores busy while the tests run`);

const ava = spawn('ava', args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => ava.kill(signal));

const code = await new Promise<number>((resolve) => {
  ava.once('error', (error) => {
    console.error(`suite: could not start ava: ${error.message}`);
    resolve(1);
  });
  ava.once('exit', (exitCode, signal) => resolve(exitCode ?? 128 + (signal ? constants.signals[signal] : 0)));
});
await Promise.all(spinners.map((spinner) => spinner.terminate()));
process.exit(code);
