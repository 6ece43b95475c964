import test from 'ava';
import { checkBrief, MAX_BRIEF, sessionName, uploadTypeOf } from './brief.ts';

test('a brief says enough, not too much, with room for the material', (t) => {
  t.deepEqual(checkBrief('  写报告  ', 0), { kind: 'tooShort', min: 10 });
  t.is(checkBrief('写一篇关于钠离子电池储能前景的简报', 3), null);
  t.deepEqual(checkBrief('长'.repeat(MAX_BRIEF + 1), 0), { kind: 'tooLong', max: MAX_BRIEF });
  t.deepEqual(checkBrief('写一篇关于钠离子电池储能前景的简报', 21), { kind: 'tooMany', max: 20 });
});

test('the session is named by the brief’s first line, shortened', (t) => {
  t.is(sessionName('钠电池简报\n面向管理层'), '钠电池简报');
  t.is(sessionName('一'.repeat(30)), `${'一'.repeat(23)}…`);
});

test('files are typed by extension as the server reads them', (t) => {
  t.is(uploadTypeOf('调研.PDF'), 'pdf');
  t.is(uploadTypeOf('page.htm'), 'html');
  t.is(uploadTypeOf('notes.markdown'), 'md');
  t.is(uploadTypeOf('photo.png'), null);
  t.is(uploadTypeOf('README'), null);
});
