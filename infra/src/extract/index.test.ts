import test, { type ExecutionContext } from 'ava';
import { readFileSync } from 'node:fs';
import { ExtractError, extractText, kindOf, MAX_INPUT_BYTES, MAX_TEXT_CHARS, TRUNCATION_MARKER, type ExtractReason } from './index.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/${name}`, import.meta.url));
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000050001' + '0d0a2db40000000049454e44ae426082', 'hex');

const refuses = async (t: ExecutionContext, promise: Promise<unknown>, reason: ExtractReason, message?: RegExp) => {
  const error = await t.throwsAsync(promise, { instanceOf: ExtractError });
  t.is(error?.reason, reason);
  if (message) t.regex(error?.message ?? '', message);
};

test('a PDF with Chinese text yields its pages, in order, and its title', async (t) => {
  const result = await extractText(fixture('zh.pdf'), { filename: '研究.pdf', mimeType: 'application/pdf' });
  t.is(result.kind, 'pdf');
  t.is(result.pages, 2);
  t.is(result.title, '事件溯源研究');
  t.true(result.text.startsWith('事件溯源研究报告\n事件溯源把每一次变更记录为不可变的事件。'));
  t.regex(result.text.replace(/\n/g, ''), /第二页：投影从事件日志构建读模型。$/);
  t.false(result.truncated);
});

test('a DOCX yields its paragraphs', async (t) => {
  const result = await extractText(fixture('zh.docx'), { filename: 'report.DOCX' });
  t.is(result.kind, 'docx');
  t.is(result.text, '季度研究报告\n\n收入同比增长百分之十二，主要来自海外市场。\n\nRevenue grew 12% year over year.');
});

test('HTML yields the article without navigation, scripts or styles', async (t) => {
  const result = await extractText(fixture('zh.html'), { filename: 'page.htm' });
  t.is(result.kind, 'html');
  t.is(result.title, '读模型与投影');
  t.regex(result.text, /第1段：读模型可以随时从事件日志重建/);
  t.regex(result.text, /第6段/);
  for (const noise of ['不应出现的脚本文字', 'color:red', '关于我们']) t.false(result.text.includes(noise), noise);
  t.true(result.text.includes('第1段：读模型可以随时从事件日志重建，因此查询结构可以按需调整，而不必迁移历史数据。这让系统在演进中保持可审计。\n'));
});

test('text in UTF-8 and in GB18030 reads the same; Markdown keeps its source and takes its title from the first heading', async (t) => {
  const expected = '研究笔记\n\n事件溯源让每一次变更都可以回放。\n第二行：中文与 English 混排。';
  t.like(await extractText(fixture('zh.txt'), { filename: 'notes.txt' }), { kind: 'txt', text: expected });
  t.like(await extractText(fixture('zh-gbk.txt'), { filename: 'notes.txt' }), { kind: 'txt', text: expected });
  const md = await extractText(fixture('zh.md'), { filename: 'outline.md' });
  t.like(md, { kind: 'md', title: '调研提纲' });
  t.true(md.text.includes('**事件溯源**'));
  t.like(await extractText(Buffer.from('\ufeff带 BOM 的文本\r\n第二行', 'utf8'), { filename: 'a.txt' }), { text: '带 BOM 的文本\n第二行' });
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('记事本另存的 UTF-16 文本', 'utf16le')]);
  t.like(await extractText(utf16, { filename: 'a.txt' }), { kind: 'txt', text: '记事本另存的 UTF-16 文本' });
});

test('without an extension the content decides, or the MIME type for text', async (t) => {
  t.is((await extractText(fixture('zh.pdf'), { filename: 'download' })).kind, 'pdf');
  t.is((await extractText(fixture('zh.docx'), { filename: 'download', mimeType: 'application/octet-stream' })).kind, 'docx');
  t.is((await extractText(fixture('zh.md'), { filename: 'README', mimeType: 'text/markdown' })).kind, 'md');
  t.is((await extractText(fixture('zh.txt'), { filename: 'README' })).kind, 'txt');
  await refuses(t, extractText(PNG, { filename: 'blob' }), 'unsupported_type');
});

test('content that contradicts the extension is refused', async (t) => {
  await refuses(t, extractText(fixture('zh.pdf'), { filename: 'notes.txt' }), 'type_mismatch', /名为 TXT，内容却是PDF/);
  await refuses(t, extractText(fixture('zh.txt'), { filename: 'paper.pdf' }), 'type_mismatch', /内容却是文本/);
  await refuses(t, extractText(fixture('zh.docx'), { filename: 'paper.pdf' }), 'type_mismatch');
  await refuses(t, extractText(fixture('zh.pdf'), { filename: 'paper.docx' }), 'type_mismatch');
  await refuses(t, extractText(PNG, { filename: 'image.md' }), 'type_mismatch');
  await refuses(t, extractText(Buffer.concat([Buffer.from('abc'), Buffer.alloc(8), Buffer.from('def')]), { filename: 'data.txt' }), 'type_mismatch');
});

test('a ZIP that is not a Word package is not a DOCX', async (t) => {
  const docx = fixture('zh.docx');
  const renamed = Buffer.from(docx.toString('latin1').replaceAll('word/document.xml', 'word/documenX.xml'), 'latin1');
  await refuses(t, extractText(renamed, { filename: 'x.docx' }), 'type_mismatch');
});

test('unknown and legacy types are refused with the list of supported ones', async (t) => {
  await refuses(t, extractText(fixture('zh.txt'), { filename: 'data.csv' }), 'unsupported_type', /不支持 \.csv 文件。支持的格式：TXT、Markdown、PDF、DOCX、HTML/);
  await refuses(t, extractText(fixture('zh.docx'), { filename: '旧报告.doc' }), 'unsupported_type', /另存为 \.docx/);
  await refuses(t, extractText(PNG, { filename: 'setup.exe' }), 'unsupported_type');
});

test('input over 20 MB is refused before anything is parsed', async (t) => {
  await refuses(t, extractText(Buffer.alloc(MAX_INPUT_BYTES + 1, 0x61), { filename: 'big.txt' }), 'too_large', /20 MB/);
});

test('text past 2 M characters is cut and marked', async (t) => {
  const result = await extractText(Buffer.from('中'.repeat(MAX_TEXT_CHARS + 10), 'utf8'), { filename: 'long.txt' });
  t.true(result.truncated);
  t.is(result.text.length, MAX_TEXT_CHARS + TRUNCATION_MARKER.length);
  t.true(result.text.endsWith(TRUNCATION_MARKER));
});

test('a cut never splits a character outside the BMP', async (t) => {
  const result = await extractText(Buffer.from('a' + '𠀀'.repeat(MAX_TEXT_CHARS), 'utf8'), { filename: 'long.txt' });
  const kept = result.text.slice(0, -TRUNCATION_MARKER.length);
  t.is(kept.length, MAX_TEXT_CHARS - 1);
  t.notThrows(() => new TextEncoder().encode(kept) && encodeURIComponent(kept));
});

test('empty, encrypted, corrupt and undecodable files are refused with their reason', async (t) => {
  await refuses(t, extractText(Buffer.alloc(0), { filename: 'a.txt' }), 'empty');
  await refuses(t, extractText(Buffer.from(' \n\t \n'), { filename: 'a.txt' }), 'empty');
  await refuses(t, extractText(fixture('zh-encrypted.pdf'), { filename: 'locked.pdf' }), 'encrypted');
  await refuses(t, extractText(Buffer.from('%PDF-1.7\nthis is not really a pdf'), { filename: 'broken.pdf' }), 'unreadable');
  await refuses(t, extractText(Buffer.from([0xff, 0xfe, 0x00, 0xd8]), { filename: 'odd.txt' }), 'encoding');
  await refuses(t, extractText(Buffer.from([0x61, 0xff, 0x80, 0x62]), { filename: 'odd.md' }), 'encoding', /UTF-8/);
});

test('a DOCX that claims to unpack to more than 200 MB is refused unopened', async (t) => {
  const bomb = Buffer.from(fixture('zh.docx'));
  for (let offset = bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); offset >= 0; offset = bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), offset + 4)) {
    bomb.writeUInt32LE(0xffffffff, offset + 24);
  }
  await refuses(t, extractText(bomb, { filename: 'bomb.docx' }), 'unreadable', /解压后过大/);
});

test('kinds are named by extension, bare name or MIME type', (t) => {
  t.is(kindOf('报告.PDF'), 'pdf');
  t.is(kindOf('markdown'), 'md');
  t.is(kindOf('text/html; charset=gbk'), 'html');
  t.is(kindOf('application/zip'), undefined);
});

test('HTML without head or body is read as a browser would: a bare paragraph has text, a page of only script, comment or nothing is empty', async (t) => {
  const html = (source: string) => extractText(Buffer.from(source), { filename: 'page.html' });
  t.is((await html('<p>hello world paragraph</p>')).text, 'hello world paragraph');
  t.is((await html('plain text only')).text, 'plain text only');
  t.is((await html('<head><title>标题</title></head><p>正文</p>')).title, '标题');
  for (const empty of ['<script>alert(1)</script>', '<!-- only a comment -->', '<style>p{}</style>', '<html></html>']) {
    await refuses(t, html(empty), 'empty', /没有可提取的文字/);
  }
});
