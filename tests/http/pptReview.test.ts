import test from 'ava';
import JSZip from 'jszip';
import { DECK_REVIEWS } from '@scriptorium/projections/deckReviews';
import { signUp, checkedFetch, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { buildDeck, mockSlideReviewer, SAMPLE_DECK } from '../support/decks.ts';
import { startMockOpenAI } from '../support/mockOpenAI.ts';
import { upload } from '../support/world.ts';

const send = (app: TestApp, user: Client, name: string, bytes: Uint8Array, language = 'zh') => upload(app.url, user.token, '/backend/api/ppt/reviews', { language }, { name, bytes });

async function finished(user: Client, reviewId: string) {
  for (let tries = 0; tries < 1500; tries++) {
    const review = await user.request('GET', `/backend/api/ppt/reviews/${reviewId}`);
    if (review.body.status === 'completed' || review.body.status === 'failed') return review.body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`review ${reviewId} did not finish`);
}

const deckEvents = async (app: TestApp) => (await app.services.events.readAll({ after: 0, maxCount: 100_000 })).filter((event) => event.type === 'DeckUploaded').length;

test('offline, a deck is reviewed slide by slide by the rules, labelled, and exported as Markdown and PDF', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'presenter');
  const sent = await send(app, user, '季度复盘.pptx', await buildDeck(SAMPLE_DECK));
  t.is(sent.status, 202);
  t.like(sent.body, { filename: '季度复盘.pptx', slide_count: 4, language: 'zh' });
  t.deepEqual(sent.body.slides[0], { n: 1, title: '季度复盘', paragraphs: ['收入同比增长 18%', '新客户 42 家'], notes: '开场：先讲结论。', images: 1, status: sent.body.slides[0].status, review: sent.body.slides[0].review, failure: null });
  const review = await finished(user, sent.body.review_id);
  t.like(review, { status: 'completed', engine: 'offline', reviewed_count: 4, failed_count: 0, error: null });
  t.true(review.score > 0 && review.score < 100);
  t.is(review.slides[0].review.score, 100);
  t.true(review.slides[1].review.spelling.points[0].includes('稳定'));
  t.is(review.slides[2].review.structure.rating, 'poor');
  t.true(review.reasons[0].startsWith('4 页幻灯片平均得分'));

  const listed = await user.request('GET', '/backend/api/ppt/reviews');
  t.deepEqual(listed.body.reviews.map((each: { review_id: string }) => each.review_id), [review.review_id]);

  const markdown = await user.request('GET', `/backend/api/ppt/reviews/${review.review_id}/export?format=md`);
  t.is(markdown.status, 200);
  t.regex(markdown.headers.get('content-type')!, /^text\/markdown/);
  t.regex(markdown.headers.get('content-disposition')!, /-review\.md/);
  t.true(markdown.body.includes('> 评审：离线引擎（按规则检查，未使用模型）'));
  t.true(markdown.body.includes(`**总分: ${review.score} / 100**`));
  const pdf = await checkedFetch(`${app.url}/backend/api/ppt/reviews/${review.review_id}/export?format=pdf`, { headers: { authorization: `Bearer ${user.token}` } });
  t.is(pdf.status, 200);
  t.is(pdf.headers.get('content-type'), 'application/pdf');
  t.is(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString(), '%PDF-');
  t.is((await user.request('GET', `/backend/api/ppt/reviews/${review.review_id}/export?format=docx`)).body.code, 'validation.failed');

  // Another user finds nothing, not even that it exists.
  const other = await signUp(app.url, 'stranger');
  for (const path of [`/backend/api/ppt/reviews/${review.review_id}`, `/backend/api/ppt/reviews/${review.review_id}/export?format=md`]) {
    const refused = await other.request('GET', path);
    t.is(refused.status, 404);
    t.is(refused.body.code, 'deck.not_found');
  }
  t.deepEqual((await other.request('GET', '/backend/api/ppt/reviews')).body.reviews, []);

  // Read between two of the projector's batches, the review may lag its slides: the answer takes its
  // counts from the slides it lists, and a review with scored slides is under way, not queued.
  await app.services.readStore.collection(DECK_REVIEWS).update(review.review_id, { $set: { status: 'uploaded', reviewed_count: 0 } });
  t.like((await user.request('GET', `/backend/api/ppt/reviews/${review.review_id}`)).body, { status: 'reviewing', reviewed_count: 4 });
});

test('files that are not a readable .pptx are refused with their code and nothing is stored', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'careless');
  const good = await buildDeck([{ title: 'x' }]);
  const word = new JSZip();
  word.file('[Content_Types].xml', '<Types/>');
  word.file('word/document.xml', '<w:document/>');
  const cases: Array<[string, Uint8Array, number, string]> = [
    ['old.ppt', good, 415, 'deck.legacy_ppt'],
    ['notes.txt', Buffer.from('just text'), 415, 'deck.extension_unsupported'],
    ['fake.pptx', Buffer.from('%PDF-1.7 this is a pdf'), 422, 'deck.not_zip'],
    ['cut.pptx', good.subarray(0, 2000), 422, 'deck.corrupt'],
    ['word.pptx', await word.generateAsync({ type: 'uint8array' }), 415, 'deck.not_presentation'],
    ['empty.pptx', new Uint8Array(0), 422, 'deck.empty'],
  ];
  for (const [name, bytes, status, code] of cases) {
    const refused = await send(app, user, name, bytes);
    t.is(refused.status, status, name);
    t.is(refused.body.code, code, name);
    t.truthy(typeof refused.body.detail === 'string' ? refused.body.detail : refused.body.detail[0].msg, name);
  }
  t.is((await send(app, user, 'deck.pptx', good, 'fr')).body.code, 'validation.failed');
  const missing = await upload(app.url, user.token, '/backend/api/ppt/reviews', { language: 'zh' });
  t.is(missing.body.code, 'files.missing');
  t.is(await deckEvents(app), 0);
  t.deepEqual((await user.request('GET', '/backend/api/ppt/reviews')).body.reviews, []);
});

test('with a model, each slide’s answer is validated, a malformed one asked again once, then the slide marked failed; every call is charged', async (t) => {
  const upstream = await startMockOpenAI({ reply: mockSlideReviewer({ malformedOnce: [2], malformed: [3] }) });
  t.teardown(() => upstream.close());
  const app = await startTestApp({ LLM_BASE_URL: upstream.url, LLM_MODEL: 'mock-model' });
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'modelled');
  const sent = await send(app, user, 'plan.pptx', await buildDeck([{ title: 'Results', bullets: ['Revenue up'] }, { title: 'Risks', bullets: ['Churn'] }, { title: 'Plan', bullets: ['Hire'] }]), 'en');
  t.is(sent.status, 202);
  const review = await finished(user, sent.body.review_id);
  t.like(review, { status: 'completed', engine: 'model', reviewed_count: 2, failed_count: 1, score: 72 });
  t.like(review.slides[0], { status: 'reviewed', review: { score: 71, clarity: { rating: 'fair', points: ['Slide 1: lead with the result'] }, rewrite: 'Slide 1 rewritten\n- One point' } });
  t.like(review.slides[1], { status: 'reviewed', review: { score: 72 } });
  t.like(review.slides[2], { status: 'failed', review: null, failure: 'The model answered in the wrong format twice, so this slide was not reviewed' });
  t.true(review.reasons.includes('Slide 3 could not be reviewed and is not scored'));
  t.is(upstream.requests.length, 5);
  t.true(upstream.requests[0]!.body.messages![0]!.content.includes('Answer in English'));
  await app.settle();
  const charged = (await app.services.events.readAll({ after: 0, maxCount: 100_000 })).filter((event) => event.type === 'TokensConsumed' && (event.data as { userId: string }).userId === user.userId);
  t.is(charged.length, 5);
  const markdown = await user.request('GET', `/backend/api/ppt/reviews/${review.review_id}/export?format=md`);
  t.true(markdown.body.includes('> Reviewed by: the model'));
});

test('a review that runs out of budget stops with the catalogue’s reason, and the next upload is refused with 402 before anything is stored', async (t) => {
  const upstream = await startMockOpenAI({ reply: mockSlideReviewer({ malformedOnce: [2], malformed: [3] }) });
  t.teardown(() => upstream.close());
  // One token a coin: the default allowance covers about one slide's call.
  const app = await startTestApp({ LLM_BASE_URL: upstream.url, LLM_MODEL: 'mock-model', TOKENS_PER_COIN: '1' });
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'spender');
  const deck = await buildDeck([{ title: 'Results', bullets: ['Revenue up'] }, { title: 'Risks', bullets: ['Churn'] }, { title: 'More', bullets: ['Hire'] }]);
  const sent = await send(app, user, 'plan.pptx', deck, 'en');
  t.is(sent.status, 202);
  const review = await finished(user, sent.body.review_id);
  t.like(review, { status: 'failed', reviewed_count: 1, error: { code: 'budget.exhausted', detail: 'Your token allowance is used up; please ask an administrator to top it up' } });
  await app.settle();
  const before = await deckEvents(app);
  const refused = await send(app, user, 'again.pptx', deck, 'en');
  t.is(refused.status, 402);
  t.like(refused.body, { code: 'budget.exhausted', detail: 'Token使用额度已用尽，请联系管理员进行充值' });
  t.is(await deckEvents(app), before);
});
