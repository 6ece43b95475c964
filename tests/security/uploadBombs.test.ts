import test from 'ava';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';
import { buildDeck } from '../support/decks.ts';
import { upload } from '../support/world.ts';
import { entriesOf, inflatingEntry, replaceEntries } from '../support/zipWriter.ts';

/**
 * Hostile documents through the real upload routes: each must fail its own request with a coded
 * refusal while the process, and every other user's requests, carry on.
 */
let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

const SLIDE_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>';
const SLIDE_TAIL = '</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>';
const DOCUMENT_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>';
const DOCUMENT_TAIL = '</w:t></w:r></w:p></w:body></w:document>';
const BLANKS = 190 * 1024 * 1024;

/** The review's case: a real deck whose first slide holds 190 MB of blanks in one text run, its sizes declared honestly or as a lie. */
async function deckBomb(declaredSize?: number): Promise<Buffer> {
  const entries = await entriesOf(await buildDeck([{ title: '封面', bullets: ['一'] }]));
  return replaceEntries(entries, [await inflatingEntry('ppt/slides/slide1.xml', SLIDE_HEAD, 0x20, BLANKS, SLIDE_TAIL, declaredSize)]);
}

async function docxBomb(declaredSize?: number): Promise<Buffer> {
  const entries = await entriesOf(readFileSync(new URL('../fixtures/zh.docx', import.meta.url)));
  return replaceEntries(entries, [await inflatingEntry('word/document.xml', DOCUMENT_HEAD, 0x20, BLANKS, DOCUMENT_TAIL, declaredSize)]);
}

const alive = async () => (await fetch(`${app.url}/healthz`)).status;

test.serial('a .pptx that inflates one slide to 190 MB is refused with a code, whatever sizes it declares, and the server still answers', async (t) => {
  const user = await signUp(app.url, 'bomber-deck');
  for (const declared of [undefined, 2_000]) {
    const sent = await upload(app.url, user.token, '/backend/api/ppt/reviews', { language: 'zh' }, { name: '炸弹.pptx', bytes: await deckBomb(declared) });
    t.is(sent.status, 413, JSON.stringify(sent.body));
    t.is(sent.body.code, 'deck.part_too_large');
    t.is(await alive(), 200);
  }
  t.deepEqual((await user.request('GET', '/backend/api/ppt/reviews')).body.reviews, []);
});

test.serial('a .docx whose document part inflates to 190 MB is refused with a code on both upload routes, and the server still answers', async (t) => {
  const user = await signUp(app.url, 'bomber-docx');
  const session = (await user.request('POST', '/backend/conversation/sessions', {})).body.session_id as string;
  for (const declared of [undefined, 4_000]) {
    const bytes = await docxBomb(declared);
    const context = await upload(app.url, user.token, '/backend/conversation/v2/research/upload_file', { conversation_id: session, file_type: 'file' }, { name: '炸弹.docx', bytes });
    t.is(context.status, 422, JSON.stringify(context.body));
    t.is(context.body.code, 'files.docx_too_large');
    const plain = await upload(app.url, user.token, '/backend/conversation/api/upload_file', {}, { name: '炸弹.docx', bytes });
    t.is(plain.status, 422);
    t.is(plain.body.code, 'files.docx_too_large');
    t.is(await alive(), 200);
  }
});

test.serial('20 hostile uploads at once fail on their own while another user keeps being served', async (t) => {
  const attacker = await signUp(app.url, 'bomber-many');
  const bystander = await signUp(app.url, 'bystander');
  const bomb = await deckBomb(2_000);
  const timed = async () => {
    const started = performance.now();
    const answer = await bystander.request('GET', '/backend/conversation/api/chats/my');
    t.is(answer.status, 200);
    return performance.now() - started;
  };
  const quiet: number[] = [];
  for (let index = 0; index < 10; index++) quiet.push(await timed());

  let attacking = true;
  const busy: number[] = [];
  const attack = Promise.all(Array.from({ length: 20 }, () => upload(app.url, attacker.token, '/backend/api/ppt/reviews', { language: 'zh' }, { name: 'x.pptx', bytes: bomb }))).finally(() => {
    attacking = false;
  });
  // At least ten of the bystander's requests, all while the attack runs (one more after it counts too: it must succeed as well).
  while (attacking || busy.length < 10) busy.push(await timed());
  const answers = await attack;
  for (const answer of answers) t.is(answer.body.code, 'deck.part_too_large');
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  t.log(`bystander median latency: ${median(quiet).toFixed(1)} ms quiet, ${median(busy).toFixed(1)} ms under 20 hostile uploads (×${(median(busy) / median(quiet)).toFixed(1)}, ${busy.length} requests)`);
  t.is(await alive(), 200);
});
