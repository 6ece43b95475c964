import test from 'ava';
import { ArtifactSplitter, filetypeOf, type SplitEvent } from './artifacts.ts';

const run = (pieces: string[]): SplitEvent[] => {
  const splitter = new ArtifactSplitter();
  return [...pieces.flatMap((piece) => splitter.push(piece)), ...splitter.end()];
};
const joinText = (events: SplitEvent[]) => events.filter((event) => event.kind === 'text').map((event) => (event as { text: string }).text).join('');

const answer = '这是页面：<artifact filename="demo.html" type="text/html">\n<h1>你好</h1></artifact>完成。';

test('text outside the tag streams as chat, the artifact arrives whole', (t) => {
  const events = run([answer]);
  t.is(joinText(events), '这是页面：完成。');
  t.deepEqual(events.filter((event) => event.kind !== 'text'), [
    { kind: 'artifact_start', filename: 'demo.html', artifactType: 'text/html' },
    { kind: 'artifact_complete', filename: 'demo.html', artifactType: 'text/html', content: '<h1>你好</h1>' },
  ]);
});

test('the same result whatever the split of the stream', (t) => {
  const whole = run([answer]);
  for (let size = 1; size <= 12; size++) {
    const pieces: string[] = [];
    for (let index = 0; index < answer.length; index += size) pieces.push(answer.slice(index, index + size));
    const events = run(pieces);
    t.is(joinText(events), joinText(whole), `pieces of ${size}`);
    t.deepEqual(events.filter((event) => event.kind !== 'text'), whole.filter((event) => event.kind !== 'text'));
  }
});

test('a lone "<" that is not a tag is kept as text', (t) => {
  t.is(joinText(run(['a < b and <', 'b> <art'])), 'a < b and <b> <art');
});

test('an unclosed artifact completes with what arrived', (t) => {
  const events = run(['<artifact type="text/markdown"># 标题\n正文']);
  t.deepEqual(events.at(-1), { kind: 'artifact_complete', filename: 'artifact-1.md', artifactType: 'text/markdown', content: '# 标题\n正文' });
});

test('artifact_type text/html is an html file, anything else markdown', (t) => {
  t.is(filetypeOf('text/html'), 'html');
  t.is(filetypeOf('text/html; charset=utf-8'), 'html');
  t.is(filetypeOf('text/markdown'), 'markdown');
});
