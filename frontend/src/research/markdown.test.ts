import test from 'ava';
import { linkCitations } from './markdown.ts';

const sources = [
  { title: 'A "quoted" title', url: 'https://a.example/x' },
  { title: 'B', url: 'https://b.example/(y)' },
  { title: 'C', url: 'javascript:alert(1)' },
];

test('bare markers become links to their sources', (t) => {
  t.is(linkCitations('见 [1]。', sources), `见 [\\[1\\]](https://a.example/x "A 'quoted' title")。`);
  t.is(linkCitations('[2]', sources), '[\\[2\\]](https://b.example/%28y%29 "B")');
});

test('markers without a safe source, and existing links, are left alone', (t) => {
  t.is(linkCitations('[3] [9]', sources), '[3] [9]');
  t.is(linkCitations('[1](https://x.example)', sources), '[1](https://x.example)');
  t.is(linkCitations('[1]', []), '[1]');
});
