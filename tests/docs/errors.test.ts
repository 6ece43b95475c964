import { readFileSync } from 'node:fs';
import test from 'ava';
import { PROTOCOL, withCodeTable } from './errorCodes.ts';

test("docs/protocol.md's code table lists the error catalogue as it is (run npm run docs:errors)", (t) => {
  const page = readFileSync(PROTOCOL, 'utf8');
  t.is(page, withCodeTable(page));
});
