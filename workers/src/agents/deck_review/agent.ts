import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { DomainError } from '@scriptorium/infra/eventsourcing/decider';
import type { JobContext } from '@scriptorium/infra/queue/port';
import type { ChatMessage } from '@scriptorium/infra/model/port';
import { deckReviewDecider, type DeckReviewCommand, type DeckReviewJobData } from '@scriptorium/domain/deckreview/decide';
import { deckReviewStream, pendingSlides, type DeckReview } from '@scriptorium/domain/deckreview/deckreview';
import { failureText } from '@scriptorium/domain/conversation/failures';
import { anyErrorText, errorText, isErrorCode } from '@scriptorium/domain/protocol/errors';
import { slideReviewSchema, type ReviewLanguage, type SlideContent, type SlideReview } from '@scriptorium/domain/protocol/deckReview';
import { completeAccounted } from '@scriptorium/domain/usage/accounted';
import type { AgentDeps } from '../deps.ts';
import { extractJson } from '../deep_cognition/run.ts';
import { deckContext, offlineSlideReview, overallReview } from './offline.ts';

const jobData = z.object({ reviewId: z.string().min(1), userId: z.string().min(1) });

/** Tries per slide: a malformed answer is asked for once more, then the slide is marked failed. */
const ANSWER_TRIES = 2;
const SLIDE_MAX_TOKENS = 1200;

const PROMPTS: Record<ReviewLanguage, string> = {
  zh:
    '你是演示文稿评审专家。逐页评审幻灯片：清晰度（clarity）、结构（structure）、与整套幻灯片的一致性（consistency）、拼写与用词（spelling）。' +
    '每个方面给出 rating（good、fair 或 poor）和 points（0 到 6 条具体意见，没有问题就给空数组）；score 是本页 0 到 100 的整数得分；' +
    'rewrite 是改写后的本页：第一行标题，之后每行一个要点（以“- ”开头），本页无需修改时为空字符串。用中文回答。只输出一个 JSON 对象，不要任何其他文字：' +
    '{"score": 0, "clarity": {"rating": "good", "points": []}, "structure": {"rating": "good", "points": []}, "consistency": {"rating": "good", "points": []}, "spelling": {"rating": "good", "points": []}, "rewrite": ""}',
  en:
    'You review presentations slide by slide: clarity, structure, consistency with the rest of the deck, and spelling and wording. ' +
    'For each aspect give a rating (good, fair or poor) and points (0 to 6 specific remarks; an empty array when there is nothing to say); score is the slide’s whole-number score from 0 to 100; ' +
    'rewrite is the slide rewritten: the title on the first line, then one point per line starting with "- ", or an empty string when the slide needs no change. Answer in English. Output one JSON object and nothing else: ' +
    '{"score": 0, "clarity": {"rating": "good", "points": []}, "structure": {"rating": "good", "points": []}, "consistency": {"rating": "good", "points": []}, "spelling": {"rating": "good", "points": []}, "rewrite": ""}',
};

const RETRY: Record<ReviewLanguage, string> = {
  zh: '上一个回答不是符合要求的 JSON。请只输出一个符合上面格式的 JSON 对象。',
  en: 'That answer was not JSON in the required shape. Output only one JSON object in the shape above.',
};

function slideMessage(slide: SlideContent, deck: readonly SlideContent[], language: ReviewLanguage): string {
  const outline = deck.map((each) => `${each.n}. ${each.title ?? '—'}`).join('\n');
  const zh = language === 'zh';
  return [
    zh ? `整套幻灯片共 ${deck.length} 页，各页标题：` : `The deck has ${deck.length} slides, titled:`,
    outline,
    '',
    zh ? `请评审第 ${slide.n} 页。` : `Review slide ${slide.n}.`,
    `${zh ? '标题' : 'Title'}: ${slide.title ?? (zh ? '（无标题）' : '(no title)')}`,
    `${zh ? '正文' : 'Text'}:`,
    ...slide.paragraphs.map((paragraph) => `- ${paragraph}`),
    `${zh ? '图片数' : 'Images'}: ${slide.images}`,
    `${zh ? '演讲者备注' : 'Speaker notes'}: ${slide.notes || (zh ? '（无）' : '(none)')}`,
  ].join('\n');
}

/** Ends the review: budget refusals stop it (the user's allowance is gone), other failures stop one slide. */
class ReviewStopped extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

const BUSY_WAIT_MS = 250;
const BUSY_TRIES = 20;

/**
 * The previous slide's call releases its budget hold when the charge process manager has read its
 * end, a moment after the call returned: a "busy" refusal in between is waited out, briefly.
 */
async function whenFree<T>(signal: AbortSignal, call: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === 'budget_busy') || tries >= BUSY_TRIES) throw error;
      await delay(BUSY_WAIT_MS, undefined, { signal });
    }
  }
}

type SlideResult = { status: 'reviewed'; review: SlideReview } | { status: 'failed'; reason: string };

async function modelSlideReview(deps: AgentDeps, job: JobContext<unknown>, data: DeckReviewJobData, deck: readonly SlideContent[], slide: SlideContent, language: ReviewLanguage): Promise<SlideResult> {
  const messages: ChatMessage[] = [
    { role: 'system', content: PROMPTS[language] },
    { role: 'user', content: slideMessage(slide, deck, language) },
  ];
  for (let attempt = 1; attempt <= ANSWER_TRIES; attempt++) {
    // One call id per job run, slide and try, so a retried job's calls are charged as the calls they are.
    const callId = `deck-review:${data.reviewId}:${slide.n}:${job.attempt}:${attempt}`;
    let text: string;
    try {
      const completion = await whenFree(job.signal, () => completeAccounted(deps, deps.model, data.userId, callId, { messages, temperature: 0.2, maxTokens: SLIDE_MAX_TOKENS, signal: job.signal }));
      text = completion.text;
    } catch (error) {
      if (job.signal.aborted) throw error;
      if (error instanceof DomainError && (error.kind === 'budget_exhausted' || error.kind === 'budget_busy') && isErrorCode(error.code)) {
        throw new ReviewStopped(error.code, anyErrorText(error.code, error.params, language));
      }
      deps.log.warn({ err: error, reviewId: data.reviewId, slide: slide.n }, 'the model call for a slide failed');
      return { status: 'failed', reason: errorText('deck.model_failed', { reason: failureText(error, language) }, language) };
    }
    const parsed = slideReviewSchema.safeParse(extractJson(text));
    if (parsed.success) return { status: 'reviewed', review: parsed.data };
    deps.log.warn({ reviewId: data.reviewId, slide: slide.n, attempt, issues: parsed.error.issues.slice(0, 3) }, 'the model’s slide review does not fit the schema');
    messages.push({ role: 'assistant', content: text }, { role: 'user', content: RETRY[language] });
  }
  return { status: 'failed', reason: errorText('deck.answer_invalid', {}, language) };
}

/**
 * Reviews an uploaded deck slide by slide, each result appended as it is ready so the page shows
 * it at once: through the model (every call accounted against the user's budget) when one is
 * configured, else by the offline engine's rules. A retried job resumes at the first slide
 * without a result.
 */
export async function runDeckReview(deps: AgentDeps, job: JobContext<unknown>): Promise<void> {
  const data = jobData.parse(job.data) as DeckReviewJobData;
  const stream = deckReviewStream(data.reviewId);
  const run = (command: Omit<DeckReviewCommand, 'metadata'>) =>
    deps.commands.handle(deckReviewDecider, stream, { ...command, metadata: { now: deps.clock(), userId: data.userId, correlationId: data.reviewId } } as DeckReviewCommand);
  const load = async (): Promise<DeckReview> => (await deps.commands.load(deckReviewDecider, stream)).state;

  let state = await load();
  if (state.status === 'uploaded') {
    await run({ type: 'StartDeckReview', data: { engine: deps.model.offline ? 'offline' : 'model' } });
    state = await load();
  }
  if (state.status !== 'reviewing') return;
  const { slides, language } = state;
  const context = deckContext(slides);
  try {
    for (const slide of pendingSlides(state)) {
      if (job.signal.aborted) throw job.signal.reason ?? new Error('aborted');
      const result: SlideResult =
        state.engine === 'offline' ? { status: 'reviewed', review: offlineSlideReview(slide, context, language) } : await modelSlideReview(deps, job, data, slides, slide, language);
      if (result.status === 'reviewed') await run({ type: 'RecordSlideReview', data: { n: slide.n, review: result.review } });
      else await run({ type: 'RecordSlideFailure', data: { n: slide.n, reason: result.reason } });
    }
  } catch (error) {
    // The worker is closing or the review was cancelled: recovery, or the user, decides what follows.
    if (job.signal.aborted) throw error;
    // Anything else would leave the review "reviewing" for good: the worker does not retry a job that threw.
    if (!(error instanceof ReviewStopped)) deps.log.error({ err: error, reviewId: data.reviewId }, 'deck review failed');
    const stopped = error instanceof ReviewStopped ? error : new ReviewStopped('deck.review_failed', errorText('deck.review_failed', {}, language));
    await run({ type: 'FailDeckReview', data: { code: stopped.code, reason: stopped.message } });
    return;
  }
  const done = await load();
  if (done.status !== 'reviewing') return;
  if (!Object.values(done.outcomes).some((outcome) => outcome.status === 'reviewed')) {
    await run({ type: 'FailDeckReview', data: { code: 'deck.nothing_reviewed', reason: errorText('deck.nothing_reviewed', {}, language) } });
    return;
  }
  await run({ type: 'CompleteDeckReview', data: overallReview(slides, done.outcomes, language) });
}
