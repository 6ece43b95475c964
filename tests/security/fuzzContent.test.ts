import test from 'ava';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { isErrorCode } from '@scriptorium/domain/protocol/errors';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';
import { buildDeck } from '../support/decks.ts';
import { upload } from '../support/world.ts';
import { entriesOf, entry, inflatingEntry, replaceEntries, writeZip, type RawEntry } from '../support/zipWriter.ts';

/**
 * Property-based fuzzing of what uploads contain, through every document route: archives with lying
 * sizes, inflation bombs, malformed OOXML, XML entity tricks (billion laughs, external entities), huge
 * single nodes, damaged PDFs and pathological HTML, each also with random bytes flipped. Whatever the
 * file: never a 5xx, a refusal carries a catalogue code and changes nothing, no file of the server's
 * leaks into an answer, and the server keeps answering. The seed is printed: FUZZ_SEED=<seed> replays it.
 */

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
// Each upload starts a document worker, and the bombs take a while to read: fewer runs than the route fuzzer's.
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
console.log(`content fuzz seed ${SEED} (FUZZ_SEED=${SEED} replays it), ${RUNS} runs per route`);

let app: TestApp;
let token: string;
let sessionId: string;
let deck: RawEntry[];
let docx: RawEntry[];
/** Files costly to build (bombs of tens of megabytes), built once and picked by the arbitraries. */
const bombs: Record<string, Buffer> = {};

const NS = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const slide = (text: string, prolog = '') => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${prolog}<p:sld ${NS}><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
const wordDocument = (text: string, prolog = '') => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${prolog}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`;
const LAUGHS = `<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level || ''};`.repeat(10)}">`).join('')}]>`;
const EXTERNAL = '<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>';

test.before(async () => {
  app = await startTestApp();
  const user = await signUp(app.url, 'content-fuzzer');
  token = user.token!;
  sessionId = (await user.request('POST', '/backend/conversation/sessions', {})).body.session_id as string;
  deck = await entriesOf(await buildDeck([{ title: '封面', bullets: ['一', '二'], notes: '讲稿' }, { title: '第二页' }]));
  docx = await entriesOf(readFileSync(new URL('../fixtures/zh.docx', import.meta.url)));
  bombs.deck = replaceEntries(deck, [await inflatingEntry('ppt/slides/slide1.xml', slide('').split('</a:t>')[0]!, 0x20, 40 * 1024 * 1024, '</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>', 1_000)]);
  bombs.docx = replaceEntries(docx, [await inflatingEntry('word/document.xml', wordDocument('').split('</w:t>')[0]!, 0x41, 70 * 1024 * 1024, '</w:t></w:r></w:p></w:body></w:document>', 1_000)]);
  bombs.deckNode = replaceEntries(deck, [await inflatingEntry('ppt/slides/slide1.xml', slide('').split('</a:t>')[0]!, 0x41, 7 * 1024 * 1024, '</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>')]);
  bombs.docxNode = replaceEntries(docx, [await inflatingEntry('word/document.xml', wordDocument('').split('</w:t>')[0]!, 0x42, 20 * 1024 * 1024, '</w:t></w:r></w:p></w:body></w:document>')]);
  // A PDF whose one content stream inflates to 100 MB: pdf.js decompresses it in the document worker.
  const stream = (await inflatingEntry('s', '', 0x20, 100 * 1024 * 1024, '')).deflated;
  const zlibStream = Buffer.concat([Buffer.from([0x78, 0x01]), stream]);
  bombs.pdf = Buffer.concat([
    Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 4 0 R>>endobj\n'),
    Buffer.from(`4 0 obj<</Length ${zlibStream.length}/Filter/FlateDecode>>stream\n`),
    zlibStream,
    Buffer.from('\nendstream endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
  ]);
});
test.after.always(async () => {
  await app?.stop();
});

type Variant = { name: string; build: () => Buffer };
const deckVariants: Variant[] = [
  { name: 'inflation bomb, lying sizes', build: () => bombs.deck! },
  { name: 'huge single text node', build: () => bombs.deckNode! },
  { name: 'billion laughs', build: () => replaceEntries(deck, [entry('ppt/slides/slide1.xml', slide('&lol9;', LAUGHS))]) },
  { name: 'external entity', build: () => replaceEntries(deck, [entry('ppt/slides/slide1.xml', slide('&xxe;', EXTERNAL))]) },
  { name: 'malformed slide XML', build: () => replaceEntries(deck, [entry('ppt/slides/slide1.xml', '<p:sld><p:cSld><a:t>unclosed')]) },
  { name: 'relationship loop and escape', build: () => replaceEntries(deck, [entry('ppt/slides/_rels/slide1.xml.rels', '<Relationships><Relationship Id="rId1" Type="x/relationships/notesSlide" Target="../../../../etc/passwd"/><Relationship Id="rId2" Type="x/relationships/notesSlide" Target="slide1.xml"/></Relationships>')]) },
  { name: 'missing slide part', build: () => writeZip(deck.filter((item) => item.name !== 'ppt/slides/slide1.xml')) },
  { name: 'declared size lies small', build: () => writeZip(deck.map((item) => ({ ...item, declaredSize: 1 }))) },
  { name: 'declared size lies huge', build: () => writeZip(deck.map((item) => ({ ...item, declaredSize: 0xfffffff0 }))) },
  { name: 'truncated archive', build: () => writeZip(deck).subarray(0, 3000) },
];
const docxVariants: Variant[] = [
  { name: 'inflation bomb, lying sizes', build: () => bombs.docx! },
  { name: 'huge single text run', build: () => bombs.docxNode! },
  { name: 'billion laughs', build: () => replaceEntries(docx, [entry('word/document.xml', wordDocument('&lol9;', LAUGHS))]) },
  { name: 'external entity', build: () => replaceEntries(docx, [entry('word/document.xml', wordDocument('&xxe;', EXTERNAL))]) },
  { name: 'malformed document XML', build: () => replaceEntries(docx, [entry('word/document.xml', '<w:document><w:body><w:p>')]) },
  { name: 'declared size lies small', build: () => writeZip(docx.map((item) => ({ ...item, declaredSize: 1 }))) },
  { name: 'truncated archive', build: () => writeZip(docx).subarray(0, 2000) },
];
const otherVariants: Array<Variant & { filename: string }> = [
  { name: 'PDF flate bomb', filename: 'bomb.pdf', build: () => bombs.pdf! },
  { name: 'PDF cut short', filename: 'cut.pdf', build: () => bombs.pdf!.subarray(0, 400) },
  { name: 'HTML nested 100,000 deep', filename: 'deep.html', build: () => Buffer.from(`<html><body>${'<div>'.repeat(100_000)}深${'</div>'.repeat(100_000)}</body></html>`) },
  { name: 'HTML one 6 MB text node', filename: 'node.html', build: () => Buffer.from(`<html><body><p>${'长'.repeat(2 * 1024 * 1024)}</p></body></html>`) },
  { name: 'HTML entity trick', filename: 'xxe.html', build: () => Buffer.from(`<?xml version="1.0"?>${EXTERNAL}<html><body><p>&xxe;</p></body></html>`) },
];

/** Flips up to a few bytes (never the first four, so the container is still recognised and the parser is reached). */
const mutated = (variants: Variant[]) =>
  fc.record({ variant: fc.constantFrom(...variants), flips: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }) }).map(({ variant, flips }) => {
    const bytes = Buffer.from(variant.build());
    for (const [at, value] of flips) if (bytes.length > 4) bytes[4 + (at % (bytes.length - 4))] = value;
    return { name: `${variant.name}${flips.length ? ` with ${flips.length} byte(s) flipped` : ''}`, bytes };
  });

const ROUTES = [
  { path: '/backend/api/ppt/reviews', fields: () => ({ language: 'zh' }), files: mutated(deckVariants).map((file) => ({ ...file, filename: 'x.pptx' })) },
  ...['/backend/conversation/v2/research/upload_file', '/backend/conversation/api/upload_file'].map((path) => ({
    path,
    fields: (): Record<string, string> => (path.includes('/v2/') ? { conversation_id: sessionId, file_type: 'file' } : {}),
    files: fc.oneof(
      mutated(docxVariants).map((file) => ({ ...file, filename: 'x.docx' })),
      fc.constantFrom(...otherVariants).map((variant) => ({ name: variant.name, filename: variant.filename, bytes: variant.build() })),
    ),
  })),
];

test.serial('every document route, fuzzed file contents: no server fault, a coded refusal that changes nothing, nothing leaked, the server up', async (t) => {
  t.log(`seed ${SEED}`);
  for (const route of ROUTES) {
    await fc.assert(
      fc.asyncProperty(route.files, async (file) => {
        await app.settle();
        const before = await app.services.events.headPosition();
        const answer = await upload(app.url, token, route.path, route.fields(), { name: file.filename, bytes: file.bytes });
        const label = `${route.path} ${file.name} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
        if (answer.status >= 500) throw new Error(`server fault: ${label}`);
        if (JSON.stringify(answer.body).includes('root:x:0:0')) throw new Error(`a server file leaked: ${label}`);
        if ((await fetch(`${app.url}/healthz`)).status !== 200) throw new Error(`the server stopped answering after ${label}`);
        if (answer.status >= 400) {
          if (!isErrorCode(answer.body.code)) throw new Error(`refusal without a catalogue code: ${label}`);
          await app.settle();
          const after = await app.services.events.headPosition();
          if (after !== before) throw new Error(`refused but the log moved ${before} → ${after}: ${label}`);
        }
        t.log(label.slice(0, 200));
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true, includeErrorInReport: true },
    );
  }
  t.pass();
});
