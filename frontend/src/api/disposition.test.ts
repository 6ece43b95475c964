import test from 'ava';
import { attachmentName } from './disposition.ts';

test('the UTF-8 file name wins over the ASCII fallback', (t) => {
  t.is(attachmentName(`attachment; filename="____-v2.md"; filename*=UTF-8''${encodeURIComponent('固态电池报告-v2.md')}`), '固态电池报告-v2.md');
});

test('a plain file name, or none', (t) => {
  t.is(attachmentName('attachment; filename="report-v1.md"'), 'report-v1.md');
  t.is(attachmentName("attachment; filename*=UTF-8''%E0%A4%A"), null);
  t.is(attachmentName(null), null);
  t.is(attachmentName('inline'), null);
});
