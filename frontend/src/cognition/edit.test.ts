import test from 'ava';
import { MAX_COLLECTION_NAME, MAX_TITLE } from '@scriptorium/domain/protocol/limits';
import { checkCollectionName, checkEdit, checkPageUrl, parseTags, tagsText } from './edit.ts';

test('tags split on Chinese and Latin separators, trimmed and without repeats', (t) => {
  t.deepEqual(parseTags('钠电池，储能、 低温 ,储能;; solid state\n'), ['钠电池', '储能', '低温', 'solid state']);
  t.deepEqual(parseTags('  '), []);
  t.is(tagsText(['a', 'b']), 'a, b');
});

test('an edit needs a title and stays within the limits', (t) => {
  t.deepEqual(checkEdit({ title: '  钠电池  ', summary: ' 摘要 ', tags: '储能，低温' }), { ok: true, patch: { title: '钠电池', summary: '摘要', tags: ['储能', '低温'] } });
  t.deepEqual(checkEdit({ title: ' ', summary: '', tags: '' }), { ok: false, errors: { title: 'titleRequired' } });
  t.deepEqual(checkEdit({ title: 'x'.repeat(MAX_TITLE + 1), summary: 's'.repeat(501), tags: 'a,b,c,d,e,f,g,h,i' }), {
    ok: false,
    errors: { title: 'titleTooLong', summary: 'summaryTooLong', tags: 'tooManyTags' },
  });
  t.deepEqual(checkEdit({ title: 't', summary: '', tags: '标'.repeat(21) }), { ok: false, errors: { tags: 'tagTooLong' } });
});

test('collection names are trimmed, 1 to 100 characters', (t) => {
  t.deepEqual(checkCollectionName(' 电池 '), { ok: true, name: '电池' });
  t.deepEqual(checkCollectionName('   '), { ok: false, error: 'nameRequired' });
  t.deepEqual(checkCollectionName('n'.repeat(MAX_COLLECTION_NAME + 1)), { ok: false, error: 'nameTooLong' });
});

test('page addresses: http(s) only, a bare host gets https', (t) => {
  t.deepEqual(checkPageUrl(' https://example.com/a?b=1 '), { ok: true, url: 'https://example.com/a?b=1' });
  t.deepEqual(checkPageUrl('example.com/article'), { ok: true, url: 'https://example.com/article' });
  t.deepEqual(checkPageUrl('http://localhost:8080/x'), { ok: true, url: 'http://localhost:8080/x' });
  t.deepEqual(checkPageUrl(''), { ok: false, error: 'urlRequired' });
  t.deepEqual(checkPageUrl('ftp://example.com/file'), { ok: false, error: 'urlInvalid' });
  t.deepEqual(checkPageUrl('javascript:alert(1)'), { ok: false, error: 'urlInvalid' });
  t.deepEqual(checkPageUrl('not a url'), { ok: false, error: 'urlInvalid' });
});

test('a host with a port and no scheme is still a web address', (t) => {
  t.deepEqual(checkPageUrl('example.com:8080/x'), { ok: true, url: 'https://example.com:8080/x' });
  t.deepEqual(checkPageUrl('mailto:someone@example.com'), { ok: false, error: 'urlInvalid' });
});
