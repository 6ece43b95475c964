import test from 'ava';
import { anchorCitations, sourceAnchor, sourceHref, type CitedSource } from './citations.ts';

const sources = [{ n: 1 }, { n: 2 }];

test('bare markers link to the sources list', (t) => {
  t.is(anchorCitations('低温性能好。 [1]', sources), `低温性能好。 [\\[1\\]](#${sourceAnchor(1)})`);
  t.is(anchorCitations('见 [1][2]', sources), `见 [\\[1\\]](#cognition-source-1)[\\[2\\]](#cognition-source-2)`);
});

test('unknown numbers, existing links and reference definitions stay', (t) => {
  t.is(anchorCitations('见 [7]', sources), '见 [7]');
  t.is(anchorCitations('[1](https://example.com)', sources), '[1](https://example.com)');
  t.is(anchorCitations('[1]: https://example.com', sources), '[1]: https://example.com');
  t.is(anchorCitations('无来源 [1]', []), '无来源 [1]');
});

const source = (overrides: Partial<CitedSource>): CitedSource => ({ n: 1, title: 't', url: null, kind: 'note', ref_id: 'r', ...overrides });

test('pages open at their address, cognitions on their page, notes nowhere', (t) => {
  t.deepEqual(sourceHref(source({ kind: 'url', url: 'https://example.com/a' })), { kind: 'external', href: 'https://example.com/a' });
  t.is(sourceHref(source({ kind: 'url', url: 'javascript:alert(1)' })), null);
  t.deepEqual(sourceHref(source({ kind: 'cognition', ref_id: 'abc' })), { kind: 'internal', href: '/cognition/display?id=abc' });
  t.is(sourceHref(source({ kind: 'note' })), null);
});
