/**
 * The grouped test files (tests/units/, see ava.config.js for when and why): the `*.test.ts` files of
 * a folder imported by one file, so that they share one process. `npx tsx tests/support/units.ts`
 * writes them; tests/lint/units.test.ts fails when one misses a file or names one that is gone.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Each group's name (its file in tests/units/) and the folder whose test files it imports. Not infra:
 * 28 of its tests failed in one process (network and server tests; the cause was not looked into).
 * Not tests/lab: its two product-driving suites, run in one process, lost a connection to the
 * product ('fetch failed'), and they cost their children's CPU, not the process's start. The suites
 * that start their apps in-process gain the most: apart each file paid the worker's start and the
 * app's import again (docs/performance.md, session 20).
 */
export const GROUPS = {
  backend: 'backend/src',
  domain: 'domain/src',
  frontend: 'frontend/src',
  projections: 'projections/src',
  workers: 'workers/src',
  http: 'tests/http',
  security: 'tests/security',
  ws: 'tests/ws',
  agents: 'tests/agents',
  lint: 'tests/lint',
  docs: 'tests/docs',
} as const;

export type Group = keyof typeof GROUPS;

/**
 * A file that awaits at its top level (outside any function), or imports one of ours that does,
 * declares its tests after AVA has started on the group, which AVA refuses: it runs in a process of
 * its own. Parsed, since a line's text cannot tell an `await` in a template string or an arrow
 * function from one the module waits on.
 */
const waitsAtTopLevel = new Map<string, boolean>();
function awaitsAtTopLevel(file: string): boolean {
  const known = waitsAtTopLevel.get(file);
  if (known !== undefined) return known;
  // Until answered, a file reached again through a cycle of imports adds nothing.
  waitsAtTopLevel.set(file, false);
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest);
  const waits = (node: ts.Node): boolean => {
    if (ts.isFunctionLike(node)) return false;
    if (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier !== undefined)) return true;
    return ts.forEachChild(node, waits) ?? false;
  };
  const imported = source.statements
    .flatMap((statement) => (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier) && statement.moduleSpecifier.text.startsWith('.') ? [join(dirname(file), statement.moduleSpecifier.text)] : []))
    .filter((path) => path.endsWith('.ts') && existsSync(join(ROOT, path)));
  const answer = (ts.forEachChild(source, waits) ?? false) || imported.some(awaitsAtTopLevel);
  waitsAtTopLevel.set(file, answer);
  return answer;
}

/** The test files of a group's folder that can share a process, relative to the repository root, in path order. */
export const testFilesOf = (group: Group): string[] =>
  readdirSync(join(ROOT, GROUPS[group]), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `${GROUPS[group]}/${file}`)
    .filter((file) => !awaitsAtTopLevel(file))
    .sort();

/** The group file's text: AVA needs the tests declared as the file loads, so static imports. */
export const groupFile = (group: Group): string =>
  [`// The test files of ${GROUPS[group]} in one process for full runs (ava.config.js); written by tests/support/units.ts.`, ...testFilesOf(group).map((file) => `import '../../${file}';`), ''].join('\n');

export const groupPath = (group: Group) => join(ROOT, 'tests', 'units', `${group}.test.ts`);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const group of Object.keys(GROUPS) as Group[]) writeFileSync(groupPath(group), groupFile(group));
}
