import test from 'ava';
import { DeckError } from '../deck/port.ts';
import { ExtractError } from '../extract/errors.ts';
import { FetchError } from '../fetch/errors.ts';
import { DocumentSandbox } from './sandbox.ts';

/** A page whose DOM needs far more than a few megabytes of heap: 200,000 nested elements. */
const deepPage = new TextEncoder().encode(`<html><body>${'<div><span>x</span>'.repeat(200_000)}</body></html>`);

test('a document that needs more heap than its worker has fails alone with a coded refusal', async (t) => {
  const sandbox = new DocumentSandbox({ heapMb: 16, youngMb: 4, timeoutMs: 600_000, concurrency: 1 });
  const error = await t.throwsAsync(sandbox.run({ task: 'text', kind: 'html', bytes: deepPage, maxChars: 1000 }), { instanceOf: ExtractError });
  t.like(error, { reason: 'unreadable', code: 'files.too_complex' });
  // The same sandbox (and process) reads the next document.
  t.is((await sandbox.run({ task: 'text', kind: 'html', bytes: new TextEncoder().encode('<p>still here</p>'), maxChars: 1000 })).text, 'still here');
});

test('a document not read within the time limit is refused, and its worker stopped', async (t) => {
  const sandbox = new DocumentSandbox({ heapMb: 384, youngMb: 32, timeoutMs: 1, concurrency: 1 });
  const error = await t.throwsAsync(sandbox.run({ task: 'deck', bytes: new Uint8Array(10) }), { instanceOf: DeckError });
  t.like(error, { reason: 'unreadable', code: 'deck.too_complex' });
});

test('a fetched page no worker can read within its heap is refused as too complex, as a fetch refusal', async (t) => {
  const sandbox = new DocumentSandbox({ heapMb: 16, youngMb: 4, timeoutMs: 600_000, concurrency: 1 });
  const error = await t.throwsAsync(sandbox.run({ task: 'page', source: new TextDecoder().decode(deepPage), fallbackTitle: 'x' }), { instanceOf: FetchError });
  t.like(error, { code: 'fetch.too_complex' });
  t.like(await sandbox.run({ task: 'page', source: '<title>标题</title><p>正文一段</p>', fallbackTitle: 'x' }), { title: '标题', text: '正文一段' });
});
