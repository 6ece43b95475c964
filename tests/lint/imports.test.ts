/**
 * The import rules of `.dependency-cruiser.cjs` on planted violations: a copy of the workspaces'
 * real manifests with, in every workspace's src, a module that imports a devDependency, one that
 * imports the test suite (tests/) and one that imports a test helper kept beside the code — each
 * must be reported by its rule — and a test beside the code that imports all three, which must not.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test from 'ava';
import { owned } from '../support/children.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const WORKSPACES = ['infra', 'domain', 'projections', 'workers', 'backend', 'frontend'];
/** A devDependency of the root package.json that no workspace declares as a dependency. */
const ROOT_DEV = 'playwright-core';
/** A workspace's own devDependency, where it has one its code could reach for. */
const OWN_DEV: Record<string, string> = { backend: '@readme/openapi-parser', frontend: 'vite' };

interface Violation {
  from: string;
  rule: { name: string };
}

function cruise(cwd: string, paths: string[]): Promise<Violation[]> {
  return new Promise((resolve, reject) => {
    owned(
      execFile(
        join(ROOT, 'node_modules/.bin/depcruise'),
        [...paths, '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'],
        { cwd, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          // It exits non-zero when it finds violations, which is what this test plants.
          if (stdout.trim() === '') return reject(error ?? new Error(stderr));
          resolve((JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations);
        },
      ),
    );
  });
}

function plant(dir: string, path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

test('production code of every workspace may not import devDependencies, tests/ or the test helpers; tests beside it may', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-imports-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', allowImportingTsExtensions: true, noEmit: true, jsx: 'react-jsx' } }));
  plant(dir, 'tests/support/helper.ts', 'export const helper = 1;\n');
  const expected: string[] = [];
  for (const workspace of WORKSPACES) {
    mkdirSync(join(dir, workspace));
    copyFileSync(join(ROOT, workspace, 'package.json'), join(dir, workspace, 'package.json'));
    const src = `${workspace}/src/planted`;
    plant(dir, `${src}/testing.ts`, "import type { ExecutionContext } from 'ava';\nexport type T = ExecutionContext;\nexport const given = 1;\n");
    plant(dir, `${src}/rootDev.ts`, `import '${ROOT_DEV}';\n`);
    plant(dir, `${src}/suite.tsx`, "import { helper } from '../../../tests/support/helper.ts';\nexport const value = helper;\n");
    plant(dir, `${src}/helper.ts`, "import { given } from './testing.ts';\nexport const value = given;\n");
    plant(dir, `${src}/beside.test.ts`, `import test from 'ava';\nimport '${ROOT_DEV}';\nimport { helper } from '../../../tests/support/helper.ts';\nimport { given } from './testing.ts';\ntest('x', (t) => t.is(helper, given));\n`);
    expected.push(`${src}/rootDev.ts production-imports-no-dev-dependencies`, `${src}/suite.tsx production-does-not-import-tests`, `${src}/helper.ts production-does-not-import-test-helpers`);
    const own = OWN_DEV[workspace];
    if (own !== undefined) {
      plant(dir, `${src}/ownDev.ts`, `import '${own}';\n`);
      plant(dir, `${src}/ownDev.test.ts`, `import '${own}';\n`);
      expected.push(`${src}/ownDev.ts production-imports-no-dev-dependencies`);
    }
  }
  const found = await cruise(dir, [...WORKSPACES.filter((name) => name !== 'frontend'), 'frontend/src']);
  t.deepEqual(found.map((violation) => `${violation.from} ${violation.rule.name}`).sort(), expected.sort());
});
