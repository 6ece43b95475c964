import { readFileSync } from 'node:fs';
import test from 'ava';
import { GROUPS, groupFile, groupPath, type Group } from '../support/units.ts';

// A test file missing from its group would not run in `npm test` at all.
for (const group of Object.keys(GROUPS) as Group[]) {
  test(`tests/units/${group}.test.ts imports every test file of ${GROUPS[group]} and nothing else`, (t) => {
    t.is(readFileSync(groupPath(group), 'utf8'), groupFile(group), 'run `npx tsx tests/support/units.ts` to rewrite it');
  });
}
