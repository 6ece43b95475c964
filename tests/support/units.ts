/**
 * The grouped unit test files (tests/units/, see ava.config.js for when and why): each workspace's
 * `*.test.ts` files imported by one file. `npx tsx tests/support/units.ts` writes them;
 * tests/lint/units.test.ts fails when one misses a file or names one that is gone.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Not infra: 28 of its tests failed in one process (network and server tests; the cause was not looked into).
export const GROUPED_WORKSPACES = ['backend', 'domain', 'frontend', 'projections', 'workers'] as const;

/**
 * A file that awaits at its top level (an unindented line with `await`) declares its tests after
 * AVA has started on the group, which AVA refuses: it runs in a process of its own.
 */
const awaitsAtTopLevel = (file: string) => /^\S.*\bawait\b/m.test(readFileSync(join(ROOT, file), 'utf8'));

/** The test files of a workspace's `src` that can share a process, relative to the repository root, in path order. */
export const testFilesOf = (workspace: string): string[] =>
  readdirSync(join(ROOT, workspace, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `${workspace}/src/${file}`)
    .filter((file) => !awaitsAtTopLevel(file))
    .sort();

/** The group file's text: AVA needs the tests declared as the file loads, so static imports. */
export const groupFile = (workspace: string): string =>
  [`// The ${workspace} workspace's unit test files in one process for full runs (ava.config.js); written by tests/support/units.ts.`, ...testFilesOf(workspace).map((file) => `import '../../${file}';`), ''].join('\n');

export const groupPath = (workspace: string) => join(ROOT, 'tests', 'units', `${workspace}.test.ts`);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const workspace of GROUPED_WORKSPACES) writeFileSync(groupPath(workspace), groupFile(workspace));
}
