import test from 'ava';
import { exampleArgs, parseArgs } from './toolArgs.ts';

test('example arguments follow the schema', (t) => {
  t.deepEqual(
    exampleArgs({ name: 'unit_convert', description: '', parameters: { properties: { value: { type: 'number' }, from: { type: 'string' }, to: { type: 'string' }, limit: { type: 'integer', default: 5 } } } }),
    { value: 1, from: '', to: '', limit: 5 },
  );
});

test('arguments must be a JSON object', (t) => {
  t.deepEqual(parseArgs('{"expression":"1+1"}'), { ok: true, args: { expression: '1+1' } });
  t.deepEqual(parseArgs(''), { ok: true, args: {} });
  t.deepEqual(parseArgs('[1]'), { ok: false });
  t.deepEqual(parseArgs('{oops'), { ok: false });
});
