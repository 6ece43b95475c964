import test from 'ava';
import { clampInputHeight, splitReportContent } from './editReport.ts';

test('short content or content with a heading is one block', (t) => {
  t.deepEqual(splitReportContent('短'), ['短']);
  const long = `## 标题\n\n${'字'.repeat(2_000)}`;
  t.deepEqual(splitReportContent(long), [long]);
});

test('long content splits on blank lines into chunks of about 800 characters', (t) => {
  const paragraphs = Array.from({ length: 8 }, (_, index) => `${index}${'文'.repeat(299)}`);
  const chunks = splitReportContent(paragraphs.join('\n\n'));
  t.true(chunks.length > 1);
  t.true(chunks.every((chunk) => chunk.length <= 800));
  t.is(chunks.join('\n\n'), paragraphs.join('\n\n'));
});

test('the input height stays within 140 and 400 px', (t) => {
  t.is(clampInputHeight(10), 140);
  t.is(clampInputHeight(250.4), 250);
  t.is(clampInputHeight(900), 400);
});
