import test from 'ava';
import { SseParser, type SseEvent } from './sse.ts';

const encode = (text: string) => new TextEncoder().encode(text);

/** Feeds the bytes in pieces of the given sizes, cycling, and returns every event. */
function parseInPieces(text: string, sizes: number[]): SseEvent[] {
  const bytes = encode(text);
  const parser = new SseParser();
  const events: SseEvent[] = [];
  for (let offset = 0, i = 0; offset < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    events.push(...parser.push(bytes.subarray(offset, offset + size)));
    offset += size;
  }
  events.push(...parser.end());
  return events;
}

const stream = [
  ': comment before anything\n',
  'data: {"text":"你好"}\n\n',
  'event: update\r\nid: 7\r\ndata: first line\r\ndata:second line\r\n\r\n',
  'data: {"a":\rdata: 1}\r\r',
  'retry: 1000\nunknown: field\n\n',
  'data\n\n',
  'data: [DONE]\n\n',
].join('');

const expected: SseEvent[] = [
  { event: 'message', data: '{"text":"你好"}' },
  { event: 'update', data: 'first line\nsecond line', id: '7' },
  { event: 'message', data: '{"a":\n1}', id: '7' },
  { event: 'message', data: '', id: '7' },
  { event: 'message', data: '[DONE]', id: '7' },
];

test('parses fields, comments, multi-line data and all three line endings', (t) => {
  t.deepEqual(parseInPieces(stream, [stream.length * 4]), expected);
});

for (const sizes of [[1], [2], [3, 1, 4], [5, 7]]) {
  test(`gives the same events when bytes arrive in pieces of ${sizes.join(',')}`, (t) => {
    // Size 1 also splits every CJK character's UTF-8 bytes and every CRLF.
    t.deepEqual(parseInPieces(stream, sizes), expected);
  });
}

test('a CR at the end of one chunk and LF at the start of the next is one line end', (t) => {
  const parser = new SseParser();
  t.deepEqual(parser.push(encode('data: a\r')), []);
  t.deepEqual(parser.push(encode('\n\r')), [{ event: 'message', data: 'a' }]);
  t.deepEqual(parser.push(encode('\ndata: b\n\n')), [{ event: 'message', data: 'b' }]);
});

test('delivers a last event that the server closed without a blank line', (t) => {
  const parser = new SseParser();
  t.deepEqual(parser.push(encode('data: {"x":1}\n\ndata: {"y":2}')), [{ event: 'message', data: '{"x":1}' }]);
  t.deepEqual(parser.end(), [{ event: 'message', data: '{"y":2}' }]);
});

test('strips a leading byte order mark', (t) => {
  t.deepEqual(parseInPieces('\uFEFFdata: x\n\n', [1]), [{ event: 'message', data: 'x' }]);
});
