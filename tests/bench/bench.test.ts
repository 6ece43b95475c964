/**
 * `npm run bench -- --short`: every bench runs to its end and prints each of its figures beside its
 * baseline (or its target, where the anchor is one). Only that is checked: a short run's figures
 * are too small to mean anything, and no test asserts a timing. The benches that need PostgreSQL
 * and Redis say they were skipped when those are not reachable.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import test from 'ava';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NUMBER = String.raw`[\d.,]+`;
const RATIO = String.raw`${NUMBER}×`;

/** What each bench must print; `skipped` when it may instead say it could not run here. */
const FIGURES: Record<string, { figures: RegExp[]; skipped?: RegExp }> = {
  eventstore: { figures: [new RegExp(`raw better-sqlite3: ${NUMBER} events/s`), new RegExp(`ratio store/raw:\\s+${RATIO} \\(target`)] },
  projections: { figures: [new RegExp(`readAll scan \\(baseline\\):\\s+${NUMBER} events/s`), new RegExp(`ratio rebuild/scan:\\s+${RATIO}`), new RegExp(`CPU time, scan / rebuild: .* ratio ${RATIO}`)] },
  streaming: { figures: [/\(a\) direct from the model provider/, new RegExp(`ratio end-to-end/direct:\\s+${RATIO} \\(target`), new RegExp(`added latency per token, model write → socket: p50 ${NUMBER} ms, p95 ${NUMBER} ms`)] },
  'token latency': { figures: [new RegExp(`added per token, model write → socket \\(b\\): p50 ${NUMBER} ms, p95 ${NUMBER} ms over \\d+ tokens`), new RegExp(`baseline, model write → provider client \\(a\\): p50 ${NUMBER} ms`)] },
  fanout: { figures: [new RegExp(`drive time fan-out/baseline: ${RATIO}`), /bare ws broadcast of the same JSON/, new RegExp(`ratio gateway/bare: ${RATIO} \\(target`)] },
  load: {
    figures: [
      new RegExp(`history reads, newest .*: ${NUMBER}/s, .*bare Node server, same ${NUMBER} bytes .*ratio ${RATIO} \\(target`),
      new RegExp(`history reads, all .*bare Node server.*ratio ${RATIO}`),
      /concurrent replies on the mock model: all ended after .*, 0 not completed/,
      new RegExp(`history reads while .* before: .*ratio of rates ${RATIO}`),
      /server RSS: \d+ MB at start, \d+ MB at the end/,
    ],
  },
  postgres: { figures: [new RegExp(`SqliteEventStore \\(baseline\\): ${NUMBER} events/s`), new RegExp(`ratio postgres/sqlite:\\s+${RATIO}`)], skipped: /postgres: skipped/ },
  'postgres writers': { figures: [/raw INSERTs \(baseline\)/, new RegExp(`8 writers against raw INSERTs by 8 connections: ${RATIO} \\(target`)], skipped: /postgres writers: skipped/ },
  'research starts': { figures: [/lone start \(baseline, \d+ in turn\): p50 \d+ ms/, new RegExp(`ratio ${RATIO} \\(target ≤ 1.5×\\); every research ran to completion`)], skipped: /research starts: skipped/ },
  canvas: { figures: [/no canvas/, new RegExp(`ratio canvas/no canvas: p50 ${RATIO}`)] },
  'chat stream': { figures: [/empty conversation/, new RegExp(`ratio long/empty: script ${RATIO}`)] },
  'engineer nodes': { figures: [new RegExp(`cursor\\s+1k: ${NUMBER} ms .* ratio ${RATIO}`), new RegExp(`offset\\s+1k: ${NUMBER} ms .* ratio ${RATIO}`)] },
  lighthouse: { figures: ['/research', '/cli'].flatMap((page) => ['signed out', 'signed in'].map((side) => new RegExp(`${page} ${side}\\s+score [\\d.]+ \\(median; target ≥ 0\\.95\\)`))) },
};

function shortRun(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/run.ts', '--short'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

test('every bench runs to its end in the short mode and prints its figures beside their baselines', async (t) => {
  // Thirteen benches, several with a product, a browser or a Lighthouse run: minutes on a loaded machine.
  t.timeout(30 * 60_000, 'the short bench run');
  const { code, output } = await shortRun();
  const sections = new Map(output.split(/^=== (.+) ===$/m).slice(1).reduce<Array<[string, string]>>((pairs, part, index, parts) => (index % 2 === 0 ? [...pairs, [part, parts[index + 1] ?? '']] : pairs), []));
  t.deepEqual([...sections.keys()], Object.keys(FIGURES), 'every bench of npm run bench, in its order');
  for (const [name, { figures, skipped }] of Object.entries(FIGURES)) {
    const section = sections.get(name) ?? '';
    t.regex(section, new RegExp(`^\\(${name}: ${NUMBER} s\\)$`, 'm'), `${name} ran to its end:\n${section}`);
    if (skipped?.test(section)) continue;
    for (const figure of figures) t.regex(section, figure, `${name} printed ${figure}:\n${section}`);
  }
  t.is(code, 0, output);
});
