import { readFileSync } from 'node:fs';
import test from 'ava';
import { GROUPED_WORKSPACES, groupFile, groupPath } from '../support/units.ts';

// A unit test file missing from its group would not run in `npm test` at all.
for (const workspace of GROUPED_WORKSPACES) {
  test(`tests/units/${workspace}.test.ts imports every test file of ${workspace}/src and nothing else`, (t) => {
    t.is(readFileSync(groupPath(workspace), 'utf8'), groupFile(workspace), 'run `npx tsx tests/support/units.ts` to rewrite it');
  });
}
