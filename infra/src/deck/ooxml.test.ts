import test, { type ExecutionContext } from 'ava';
import JSZip from 'jszip';
import { buildDeck } from '../../../tests/support/decks.ts';
import { entriesOf, inflatingEntry, replaceEntries } from '../../../tests/support/zipWriter.ts';
import { OoxmlDeckReader, PPTX_MIME } from './ooxml.ts';
import { MAX_PART_BYTES, MAX_SLIDES } from './slides.ts';
import { DeckError } from './port.ts';

const reader = new OoxmlDeckReader();
const pptx = (bytes: Uint8Array, filename = 'deck.pptx', mimeType = PPTX_MIME) => reader.read(bytes, { filename, mimeType });
const refusal = async (t: ExecutionContext, promise: Promise<unknown>, code: string) => {
  const error = await t.throwsAsync(promise, { instanceOf: DeckError });
  t.is(error?.code, code);
  return error;
};

test('slides come in show order with their title, text, notes and images', async (t) => {
  const bytes = await buildDeck([
    { title: 'Quarterly review', bullets: ['Revenue up 18%', 'Churn 2024: 3%'], notes: 'Open with the result.', images: 2 },
    { bullets: ['A slide without a title'], text: 'Footnote box' },
  ]);
  const deck = await pptx(bytes);
  t.deepEqual(deck.slides, [
    { n: 1, title: 'Quarterly review', paragraphs: ['Revenue up 18%', 'Churn 2024: 3%'], notes: 'Open with the result.', images: 2 },
    { n: 2, title: null, paragraphs: ['A slide without a title', 'Footnote box'], notes: '', images: 0 },
  ]);
});

test('the show order is presentation.xml’s, not the order of the slide parts’ names', async (t) => {
  const zip = await JSZip.loadAsync(await buildDeck([{ title: 'First' }, { title: 'Second' }, { title: 'Third' }]));
  const presentation = await zip.file('ppt/presentation.xml')!.async('string');
  const ids = [...presentation.matchAll(/<p:sldId [^>]*\/>/g)].map((match) => match[0]);
  zip.file('ppt/presentation.xml', presentation.replace(ids.join(''), [ids[2], ids[0], ids[1]].join('')));
  const deck = await pptx(await zip.generateAsync({ type: 'uint8array' }));
  t.deepEqual(deck.slides.map((slide) => [slide.n, slide.title]), [[1, 'Third'], [2, 'First'], [3, 'Second']]);
});

test('Chinese text and digits are kept as typed', async (t) => {
  const deck = await pptx(await buildDeck([{ title: '二〇二四 年度计划', bullets: ['007', '收入 1,200 万'], notes: '先讲结论，再讲原因。' }]));
  t.like(deck.slides[0], { title: '二〇二四 年度计划', paragraphs: ['007', '收入 1,200 万'], notes: '先讲结论，再讲原因。' });
});

test('files that are not a .pptx are refused by name, type and content', async (t) => {
  const good = await buildDeck([{ title: 'x' }]);
  await refusal(t, pptx(good, 'deck.ppt'), 'deck.legacy_ppt');
  t.like(await refusal(t, pptx(good, 'deck.key'), 'deck.extension_unsupported'), { params: { extension: 'key' }, reason: 'unsupported_type' });
  await refusal(t, pptx(good, 'deck.pptx', 'application/pdf'), 'deck.type_mismatch');
  await refusal(t, pptx(Buffer.from('%PDF-1.7 not a deck')), 'deck.not_zip');
  await refusal(t, pptx(new Uint8Array(0)), 'deck.empty');
  await refusal(t, pptx(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0])), 'deck.encrypted');
  // A Word document renamed to .pptx is a ZIP, but holds no presentation.
  const docx = new JSZip();
  docx.file('[Content_Types].xml', '<Types/>');
  docx.file('word/document.xml', '<w:document/>');
  await refusal(t, pptx(await docx.generateAsync({ type: 'uint8array' })), 'deck.not_presentation');
  // Cut short: the central directory is gone.
  await refusal(t, pptx(good.subarray(0, Math.floor(good.length / 2))), 'deck.corrupt');
  t.like(await refusal(t, pptx(new Uint8Array(21 * 1024 * 1024)), 'deck.too_large'), { reason: 'too_large', params: { mb: 20 } });
});

test('a damaged slide part or a deck without slides is refused', async (t) => {
  const zip = await JSZip.loadAsync(await buildDeck([{ title: 'x' }]));
  zip.file('ppt/slides/slide1.xml', '<p:sld><p:cSld><unclosed');
  await refusal(t, pptx(await zip.generateAsync({ type: 'uint8array' })), 'deck.corrupt');
  const empty = await JSZip.loadAsync(await buildDeck([{ title: 'x' }]));
  const presentation = await empty.file('ppt/presentation.xml')!.async('string');
  empty.file('ppt/presentation.xml', presentation.replace(/<p:sldIdLst>.*<\/p:sldIdLst>/, ''));
  await refusal(t, pptx(await empty.generateAsync({ type: 'uint8array' })), 'deck.no_slides');
});

test('a deck with more slides than a review takes is refused', async (t) => {
  const deck = await buildDeck(Array.from({ length: MAX_SLIDES + 1 }, (_, index) => ({ title: `S${index}` })));
  t.like(await refusal(t, pptx(deck), 'deck.too_many_slides'), { params: { max: MAX_SLIDES } });
});

test('a slide part is inflated only up to its bound, counted on real bytes: one that lies about its size is refused', async (t) => {
  const entries = await entriesOf(await buildDeck([{ title: 'x' }]));
  const head = '<p:sld xmlns:a="a" xmlns:p="p"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>';
  const bomb = replaceEntries(entries, [await inflatingEntry('ppt/slides/slide1.xml', head, 0x20, MAX_PART_BYTES + 1, '</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>', 100)]);
  t.like(await refusal(t, pptx(bomb), 'deck.part_too_large'), { reason: 'too_large', params: { mb: MAX_PART_BYTES / 1024 / 1024 } });
});

test('a part with a document type declaration (an entity trick) is refused before it is parsed', async (t) => {
  const zip = await JSZip.loadAsync(await buildDeck([{ title: 'x' }]));
  const laughs = '<!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>';
  const slide = await zip.file('ppt/slides/slide1.xml')!.async('string');
  zip.file('ppt/slides/slide1.xml', slide.replace(/^(<\?xml[^>]*\?>)/, `$1${laughs}`).replace('<a:t>x</a:t>', '<a:t>&b;</a:t>'));
  await refusal(t, pptx(await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' })), 'deck.corrupt');
});
