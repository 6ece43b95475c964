import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The slowest files first: with two files running at a time, a long file started last keeps one core
 * idle while it finishes alone; started first, the hundreds of short unit files fill in around it.
 * Ranked by the times measured in docs/performance.md ("Test suite time"); a file matching no entry
 * runs after every listed one, and ties keep the path order.
 */
const SLOWEST_FIRST = [
  'tests/bench/bench.',
  'tests/e2e/a11y.',
  'tests/units/http.',
  'tests/units/security.',
  'tests/e2e/collab.',
  'tests/e2e/account.',
  'tests/security/fuzzContent.',
  'tests/e2e/state.',
  'tests/e2e/resume.',
  'tests/e2e/i18n.',
  'tests/e2e/engineer.',
  'tests/e2e/research.',
  'tests/e2e/degradation.',
  'tests/e2e/password.',
  'tests/e2e/',
  'tests/security/',
  'tests/fault/',
  'tests/http/',
  'tests/agents/',
  'tests/units/agents.',
  'tests/cli/',
  'tests/ws/',
  'tests/units/ws.',
  'tests/contract/',
  'tests/lab/',
];

/**
 * Full runs (`npm test`, `npm run test:stress`: GROUP_UNIT_TESTS=1) run each workspace's unit test
 * files in one process, and the files of each of tests/http, security, ws, agents, lint and docs
 * in one, through the files in tests/units/ that import them (tests/support/units.ts): a test process
 * costs 1-2 s of CPU before its first test (Node, tsx's loader thread, AVA's worker), which was most
 * of the time of 139 files whose tests take milliseconds (docs/performance.md, session 18), and each
 * HTTP, security or socket file paid the app's import again besides (session 20). A file named on
 * the command line, or a run without the variable, still gets a process of its own.
 */
const GROUPED = process.env.GROUP_UNIT_TESTS === '1';
const WORKSPACE_TESTS = ['backend', 'domain', 'projections', 'workers', 'infra', 'frontend'].map((workspace) => `${workspace}/src/**/*.test.ts`);
const groupedFiles = () =>
  readdirSync('tests/units').flatMap((group) => [...readFileSync(join('tests/units', group), 'utf8').matchAll(/^import '\.\.\/\.\.\/(.+)';$/gm)].map((match) => `!${match[1]}`));

const rank = (file) => {
  const at = SLOWEST_FIRST.findIndex((part) => file.includes(part));
  return at === -1 ? SLOWEST_FIRST.length : at;
};

export default {
  files: GROUPED ? [...WORKSPACE_TESTS, 'tests/**/*.test.ts', ...groupedFiles()] : [...WORKSPACE_TESTS, 'tests/**/*.test.ts', '!tests/units/**'],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  // A hang detector (no test of any file has finished for this long), not a measure: a loaded machine only makes files slower.
  timeout: '10m',
  concurrency: 2,
  workerThreads: false,
  sortTestFiles: (a, b) => rank(a) - rank(b) || a.localeCompare(b),
};
