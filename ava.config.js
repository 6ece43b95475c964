/**
 * The slowest files first: with two files running at a time, a long file started last keeps one core
 * idle while it finishes alone; started first, the hundreds of short unit files fill in around it.
 * Ranked by the times measured in docs/performance.md ("Test suite time"); a file matching no entry
 * runs after every listed one, and ties keep the path order.
 */
const SLOWEST_FIRST = [
  'tests/e2e/a11y.',
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
  'tests/cli/',
  'tests/ws/',
  'tests/contract/',
  'tests/lab/',
];

const rank = (file) => {
  const at = SLOWEST_FIRST.findIndex((part) => file.includes(part));
  return at === -1 ? SLOWEST_FIRST.length : at;
};

export default {
  files: [
    'backend/src/**/*.test.ts',
    'domain/src/**/*.test.ts',
    'projections/src/**/*.test.ts',
    'workers/src/**/*.test.ts',
    'infra/src/**/*.test.ts',
    'frontend/src/**/*.test.ts',
    'tests/**/*.test.ts',
  ],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  // A hang detector (no test of any file has finished for this long), not a measure: a loaded machine only makes files slower.
  timeout: '10m',
  concurrency: 2,
  workerThreads: false,
  sortTestFiles: (a, b) => rank(a) - rank(b) || a.localeCompare(b),
};
