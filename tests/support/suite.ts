/**
 * Runs AVA (with the arguments given), optionally beside `npm run checks` and under a CPU load.
 *
 * `--checks` (`npm test`): the type checks and lint run while the tests do, not before them, which
 * kept both cores busy for about three minutes while no test ran; beside AVA they take what its two
 * slots leave (a file's waits, the last file running alone) and share the rest (docs/performance.md,
 * session 19). Their output is kept and printed after AVA's, so that it cannot split a TAP line, and
 * the run fails when either fails.
 *
 * `--cpu-load <n>` (`npm run test:stress`): `n` threads spin for the whole run, so that the suite proves
 * it passes on a machine whose cores are taken (issue 32: tests must not fail by the clock).
 *
 * Every process started here (the spinning threads, AVA, the checks) ends with this one however it ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { Worker } from 'node:worker_threads';

const args = process.argv.slice(2);
const loadAt = args.indexOf('--cpu-load');
const load = loadAt === -1 ? 0 : Number(args.splice(loadAt, 2)[1]);
if (!Number.isInteger(load) || load < 0) {
  console.error('--cpu-load takes a number of threads');
  process.exit(2);
}
const checksAt = args.indexOf('--checks');
const withChecks = checksAt !== -1;
if (withChecks) args.splice(checksAt, 1);

const spinners = Array.from({ length: load }, () => new Worker('for (;;);', { eval: true }));
if (load > 0) console.log(`suite: ${load} threads keep ${load} cores busy while the tests run`);

const exitCode = (child: ChildProcess, name: string): Promise<number> =>
  new Promise((resolve) => {
    child.once('error', (error) => {
      console.error(`suite: could not start ${name}: ${error.message}`);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(code ?? 128 + (signal ? constants.signals[signal] : 0)));
  });

const started: ChildProcess[] = [];
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => started.forEach((child) => child.kill(signal)));

let checksOutput = '';
let checksDone: Promise<number> = Promise.resolve(0);
if (withChecks) {
  const checks = spawn('npm', ['run', 'checks'], { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(checks);
  checks.stdout.on('data', (chunk: Buffer) => (checksOutput += chunk.toString()));
  checks.stderr.on('data', (chunk: Buffer) => (checksOutput += chunk.toString()));
  checksDone = exitCode(checks, 'npm run checks');
}

const ava = spawn('ava', args, { stdio: 'inherit' });
started.push(ava);
const avaCode = await exitCode(ava, 'ava');
const checksCode = await checksDone;
if (withChecks) {
  process.stdout.write(checksOutput);
  console.log(checksCode === 0 ? 'suite: npm run checks passed' : `suite: npm run checks failed (exit code ${checksCode})`);
}
await Promise.all(spinners.map((spinner) => spinner.terminate()));
process.exit(avaCode !== 0 ? avaCode : checksCode);
