import { readFileSync } from 'node:fs';
import test from 'ava';
import { CATALOGUE, renderCatalogue } from './eventCatalogue.ts';

test('docs/events.md lists every event the code declares (run npm run docs:events)', (t) => {
  t.is(readFileSync(CATALOGUE, 'utf8'), renderCatalogue());
});
