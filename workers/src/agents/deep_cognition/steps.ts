/**
 * The research steps shared by the stages: searching, reading pages, writing a version and what
 * follows it. Each records what it did as it goes, so the user sees every step and a re-run of the
 * job can tell what is done.
 */
import { conversationStream, type OpenSession } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider } from '@scriptorium/domain/conversation/decide';
import { CANVAS_ID, type WebResult } from '@scriptorium/domain/protocol/research';
import { BudgetExhaustedError } from '@scriptorium/domain/budget/allowance';
import type { SearchHit, SearchPort } from '@scriptorium/infra/search/port';
import { failureItem } from '@scriptorium/domain/conversation/failures';
import type { Progress } from '@scriptorium/domain/protocol/progress';
import { bestSentences, judge, pageSummary } from './heuristics.ts';
import { JUDGE_PROMPT, judgeSchema } from './prompts.ts';
import { checkpoint, command, completeJson, Draft, offlineWork, type Run } from './run.ts';
import type { SourceBook } from './sources.ts';
import { CHUNK_CHARS, ChunkIndex, excerptsBySource } from './chunks.ts';
import { runTokens, type StageTrace, type StoredPage } from './trace.ts';
import { extractText, type Extract, type ExtractSection } from './extracts.ts';
import { clip, headingLike, sentenceKey, sentencesOf, splitEditReport, termsOf } from './text.ts';

/** One page of an engine's results, as SearXNG gives it. */
const RESULTS_PER_QUERY = 10;
/** Results a round judges besides the pages the job has already read. */
const RESULTS_PER_ROUND = 6;
const PAGES_PER_ROUND = 4;
/** Characters of a snippet the judge sees. */
const SNIPPET_CHARS = 240;
/** What of a page its note is taken from: its chunks that bear most on the step. */
const SUMMARY_CHUNKS = 2;
/** Sentences of those chunks a page's note keeps, each at most this long. */
const NOTE_SENTENCES = 2;
const NOTE_SENTENCE_CHARS = 240;
/** What a figure adds to a sentence's claim on a note, against the share of the step's words it holds. */
const FIGURE_WEIGHT = 0.25;
const FIGURE = /\d/;

export interface Searcher {
  port: SearchPort;
  kind: 'web' | 'local';
}

/** Web search when the session has it on and one is configured, else the user's own material. */
/** Which search the research uses, said once per job: `said` holds what a run before this one already said. */
export async function chooseSearch(run: Run, session: OpenSession, said: ReadonlySet<string>): Promise<Searcher | null> {
  const { webSearch, localSearch } = run.deps;
  const say = async (progress: Progress) => {
    if (!said.has(progress.code)) await run.writer.progress(progress);
  };
  if (session.searchEnabled && webSearch && webSearch.available !== false) {
    await say({ code: 'research.webSearch', params: {} });
    return { port: webSearch, kind: 'web' };
  }
  const reason = session.searchEnabled ? 'unconfigured' : 'off';
  if (localSearch) {
    await say({ code: 'research.localSearch', params: { reason } });
    return { port: localSearch, kind: 'local' };
  }
  await say({ code: 'research.noMaterial', params: { reason } });
  return null;
}

/** Where a search round belongs: its plan step, its round within the step, and why a follow-up was asked for. */
export interface Placement {
  step: number;
  round: number;
  reason?: string;
}

/**
 * Runs the queries side by side, judges the hits and records them as one search round. A hit the
 * step's earlier rounds already judged (`known`) keeps that judgement: a follow-up search mostly
 * finds the same pages again, and the judge is shown only the new ones. The steps of one question
 * search at once with like words, so the job's `pages` keep them apart: a page the job has read, or
 * that another round is judging now, takes no place among the round's results to judge, and the
 * places go further down the engine's page, so steps researched side by side read different pages
 * rather than the same few. Such a page still counts for the step when found useful.
 */
export async function searchRound(
  run: Run,
  searcher: Searcher | null,
  queries: string[],
  about: string,
  key: string,
  placement: Placement,
  known: readonly WebResult[],
  pages: PageReader,
): Promise<WebResult[]> {
  checkpoint(run);
  await run.writer.output('web_search_queries', { queries });
  const language = run.language === 'zh' ? 'zh-CN' : 'en';
  const answers = await Promise.all(
    queries.map((query) =>
      searcher
        ? run.pools.fetch(() => searcher.port.search(query, { limit: RESULTS_PER_QUERY, signal: run.job.signal, userId: run.data.userId, language })).then(
            (hits) => ({ query, hits }),
            (error: unknown) => ({ query, hits: [] as SearchHit[], error }),
          )
        : { query, hits: [] as SearchHit[] },
    ),
  );
  checkpoint(run);
  for (const answer of answers) {
    if (!('error' in answer)) continue;
    run.deps.log.warn({ err: answer.error, query: answer.query, replyId: run.data.replyId }, 'a search failed');
    await run.writer.progress({ code: 'research.searchFailed', params: { query: answer.query } });
  }
  // Taken rank by rank across the queries, so each query's best hits come before any query's tail.
  const hits = Array.from({ length: Math.max(0, ...answers.map((answer) => answer.hits.length)) }, (_, rank) => answers.flatMap((answer) => answer.hits[rank] ?? [])).flat();
  const judged = new Map(known.map((result) => [result.url, result]));
  // From here to the claim nothing awaits: which pages this round takes must be settled before
  // another step's round looks.
  const elsewhere = new Map<string, Promise<WebResult | undefined>>();
  let places = 0;
  const unique = hits
    .filter((hit, index) => hits.findIndex((other) => other.url === hit.url) === index)
    .filter((hit) => {
      if (pages.has(hit.url)) return true;
      const verdict = judged.has(hit.url) ? undefined : pages.verdictOf(hit.url);
      if (verdict) elsewhere.set(hit.url, verdict);
      return verdict !== undefined || places++ < RESULTS_PER_ROUND;
    });
  // A page the job has read was judged useful by the step that read it; its text is at hand, and the
  // sections' chunk retrieval decides what of it bears on this step, so the judge is not asked again.
  const terms = termsOf(about);
  for (const hit of unique) if (pages.has(hit.url) && !judged.has(hit.url)) judged.set(hit.url, usefulResult(hit, terms));
  const fresh = unique.filter((hit) => !judged.has(hit.url) && !elsewhere.has(hit.url));
  // The rules judge by the queries: a whole question has too many words for any snippet to cover.
  const judgeHits = async (listed: SearchHit[]) => (await judgeWithModel(run, listed, about)) ?? judge(listed, queries.join(' '));
  const verdicts = fresh.length > 0 ? judgeHits(fresh) : Promise.resolve([]);
  pages.claim(fresh.map((hit) => hit.url), verdicts);
  for (const result of await verdicts) judged.set(result.url, result);
  // A page another round found useful will be read, and serves this step too; one it turned away was
  // judged for that round's step, so this step judges it for its own.
  const turnedAway: SearchHit[] = [];
  for (const hit of unique) {
    const verdict = elsewhere.get(hit.url);
    if (!verdict) continue;
    if ((await verdict)?.has_useful_info) judged.set(hit.url, usefulResult(hit, terms));
    else turnedAway.push(hit);
  }
  if (turnedAway.length > 0) for (const result of await judgeHits(turnedAway)) judged.set(result.url, result);
  const results = unique.map((hit) => judged.get(hit.url)!);
  await command(run, key, { type: 'RecordSearchResults', data: { messageId: run.data.replyId, queries, results, ...placement } });
  return results;
}

async function judgeWithModel(run: Run, hits: SearchHit[], about: string): Promise<WebResult[] | null> {
  if (run.deps.model.offline || hits.length === 0) return null;
  // The host says whose page it is; the rest of the address says nothing a judge needs.
  const listed = hits.map((hit, index) => `[${index + 1}] ${hit.title}${hostOf(hit.url)}\n${clip(hit.snippet, SNIPPET_CHARS)}`).join('\n\n');
  const judged = await completeJson(run, 'judging', 'judge', judgeSchema, [
    { role: 'system', content: JUDGE_PROMPT },
    { role: 'user', content: `研究内容：${about}\n\n搜索结果：\n${listed}` },
  ]);
  if (!judged) return null;
  const useful = new Set(judged.useful);
  const terms = termsOf(about);
  return hits.map((hit, index) => (useful.has(index + 1) ? usefulResult(hit, terms) : { title: hit.title, url: hit.url, snippet: hit.snippet, has_useful_info: false, useful_info_summary: '' }));
}

const usefulResult = (hit: SearchHit, terms: string[]): WebResult => ({
  title: hit.title,
  url: hit.url,
  snippet: hit.snippet,
  has_useful_info: true,
  useful_info_summary: bestSentences(hit.snippet, terms, 1, 160) || clip(hit.snippet, 160),
});

const readable = (url: string) => /^https?:\/\//i.test(url);

function hostOf(url: string): string {
  if (!readable(url)) return '';
  try {
    return ` (${new URL(url).host})`;
  } catch {
    return '';
  }
}

/** Characters of a page kept in the log: enough for every passage a section or a revision may need. */
const STORED_PAGE_CHARS = 40_000;

/** What a round learnt of one useful result: the page when it was read, else its snippet. */
export interface Learnt {
  title: string;
  url: string;
  text: string;
  read: boolean;
  /** What the page says about the step (the model's summary), or the judge's line on the snippet. */
  summary: string;
}

interface ReadPage {
  title: string;
  text: string;
  summary: string;
}

/**
 * The pages one job reads, each fetched, summarised and recorded once however many steps choose it,
 * through the job's fetch and model pools. A page the log already holds (`stored`) is not fetched
 * again; `announced` holds the pages the chat already shows as read.
 */
export class PageReader {
  private readonly reads = new Map<string, Promise<ReadPage | null>>();
  private readonly announced: Set<string>;

  constructor(
    private readonly run: Run,
    private readonly stored: ReadonlyMap<string, StoredPage> = new Map(),
    announced: ReadonlySet<string> = new Set(),
  ) {
    this.announced = new Set(announced);
  }

  /** Whether the job has read this page, or is reading it. */
  readonly has = (url: string): boolean => this.reads.has(url) || this.stored.has(url);

  private readonly judging = new Map<string, Promise<WebResult | undefined>>();

  /** Another round's verdict on a page, while its judge is still answering. */
  verdictOf(url: string): Promise<WebResult | undefined> | undefined {
    return this.judging.get(url);
  }

  /** Puts pages before one round's judge; until `verdicts` come, other rounds wait for them instead of judging the pages again. */
  claim(urls: readonly string[], verdicts: Promise<readonly WebResult[]>): void {
    const settled = verdicts.then(
      (results) => results,
      (): readonly WebResult[] => [],
    );
    for (const url of urls) {
      const verdict = settled.then((results) => results.find((result) => result.url === url));
      this.judging.set(url, verdict);
      void verdict.then(() => {
        if (this.judging.get(url) === verdict) this.judging.delete(url);
      });
    }
  }

  /**
   * Reads the most useful pages of a round (whether or not an earlier round listed them) with the
   * spec's progress items, kept together in the chat; useful results that are not read count by
   * their snippets. Nothing is added to a source book here: the caller numbers what steps learnt in
   * plan order, so the numbers do not depend on which step finished first.
   */
  async round(results: WebResult[], about: string): Promise<Learnt[]> {
    const { run } = this;
    const useful = results.filter((result) => result.has_useful_info);
    // A page another step already read (or is reading) costs nothing more, so it takes no place in
    // the round: the places go to pages this job has not read yet.
    let unread = 0;
    const toRead = run.deps.fetcher ? useful.filter((result) => readable(result.url) && (this.has(result.url) || unread++ < PAGES_PER_ROUND)) : [];
    const toAnnounce = toRead.filter((result) => !this.announced.has(result.url));
    for (const result of toAnnounce) this.announced.add(result.url);
    const pages = await Promise.all(toRead.map((result) => this.read(result, about)));
    checkpoint(run);
    if (toAnnounce.length > 0) await run.pools.chat(() => this.announce(toAnnounce, toRead, pages));
    return useful.map((result): Learnt => {
      const page = pages[toRead.indexOf(result)];
      if (page) return { title: page.title, url: result.url, text: `${page.summary}\n\n${page.text}`, read: true, summary: page.summary };
      return { title: result.title, url: result.url, text: [result.snippet, result.useful_info_summary].filter(Boolean).join('\n'), read: false, summary: result.useful_info_summary || result.snippet };
    });
  }

  private read(result: WebResult, about: string): Promise<ReadPage | null> {
    let reading = this.reads.get(result.url);
    if (!reading) {
      reading = this.fetchAndSummarise(result, about);
      this.reads.set(result.url, reading);
    }
    return reading;
  }

  private async fetchAndSummarise(result: WebResult, about: string): Promise<ReadPage | null> {
    const { run } = this;
    const known = this.stored.get(result.url);
    if (known) return known;
    const fetcher = run.deps.fetcher!;
    let page: { title: string; text: string };
    try {
      page = await run.pools.fetch(() => {
        checkpoint(run);
        return fetcher.fetch(result.url, { signal: run.job.signal });
      });
    } catch (error) {
      checkpoint(run);
      run.deps.log.info({ err: error, url: result.url, replyId: run.data.replyId }, 'a page could not be read');
      return null;
    }
    if (!page.text.trim()) return null;
    const title = page.title.trim() || result.title;
    const summary = pageNote(title, page.text, about);
    await command(run, `page:${result.url}`, { type: 'RecordPage', data: { messageId: run.data.replyId, url: result.url, title, text: clip(page.text, STORED_PAGE_CHARS), summary } });
    return { title, text: page.text, summary };
  }

  private async announce(urls: WebResult[], round: WebResult[], pages: Array<ReadPage | null>): Promise<void> {
    const { writer } = this.run;
    const list = urls.map((result) => result.url);
    const pageOf = (result: WebResult) => pages[round.indexOf(result)];
    await writer.output('web_browsing_start', { urls: list, message: 'Browsing Webpages .....' });
    await writer.output('web_scraping_start', { urls: list, message: 'Scraping Webpages .....' });
    for (const [index, result] of urls.entries()) await writer.output('web_browsing_in_progress', { url: result.url, title: result.title, index: index + 1, total: urls.length });
    const count = urls.filter((result) => pageOf(result)).length;
    await writer.output('web_scraping_end', { count, message: `Get Information from ${count} Webpages....` });
    for (const result of urls) {
      const page = pageOf(result);
      if (page) await writer.output('web_browsing_result', { url: result.url, title: page.title, ok: true, summary: page.summary });
      else await writer.output('web_browsing_result', { url: result.url, title: result.title, ok: false, error: this.run.language === 'zh' ? '网页读取失败' : 'The page could not be read' });
    }
    await writer.output('web_browsing_llm_end', { message: 'Browsing Webpages Finished' });
  }
}

/** Adds what steps learnt to the sources in plan order; returns each step's source numbers. */
export function numberLearnt(sources: SourceBook, learnt: ReadonlyArray<readonly Learnt[]>): Array<Set<number>> {
  return learnt.map((step) => new Set(step.map((entry) => sources.add({ title: entry.title, url: entry.url, text: entry.text, read: entry.read }))));
}

/**
 * What a page says about the step, in its own sentences: of its chunks that bear most on the step
 * (as GPT Researcher compresses pages to what the query needs), the sentences that share most of
 * the step's words, those giving a figure first, as a researcher's notes keep the data, and the
 * page's figure most on the step from wherever it stands. Each section is given the notes of the
 * pages its step read (`SourceBook.context`), so what is noted here reaches the writer. Taken, not
 * written: the note stands at the head of the source's text, where the citation check reads it, so
 * a model's paraphrase there could vouch for a claim the page never makes; and it costs no call.
 */
export function pageNote(title: string, text: string, about: string): string {
  // The page's heading says what the title already says.
  const body = text.split('\n').filter((line) => line.trim() !== title.trim()).join('\n');
  const terms = termsOf(about);
  const shown = excerptsBySource(new ChunkIndex([{ n: 1, text: body }]).best(about, SUMMARY_CHUNKS)).get(1) ?? clip(body, CHUNK_CHARS);
  // A heading left in the page's text (one worded otherwise than its title) says what the page is about, not what it found: never taken.
  const onStep = bestSentences(shown, terms, NOTE_SENTENCES, NOTE_SENTENCE_CHARS, (sentence) => (headingLike(sentence) ? -1 : FIGURE.test(sentence) ? FIGURE_WEIGHT : 0));
  if (!onStep) return pageSummary(body, about);
  // A figure the page gives far from where it speaks of the step in words is still what a reader
  // notes: from anywhere past those chunks, the one sharing most of the step's words goes in too (a
  // long review's one measured result may sit past its 3,000th character, among words of its own).
  const further = sentencesOf(body).filter((sentence) => FIGURE.test(sentence) && !headingLike(sentence) && !onStep.includes(clip(sentence, NOTE_SENTENCE_CHARS)));
  const figure = bestSentences(further.join('\n'), terms, 1, NOTE_SENTENCE_CHARS);
  return figure ? `${onStep} ${figure}` : onStep;
}

/**
 * With an embedding endpoint, the sources' chunks and the focuses of the calls to come are embedded,
 * so those calls retrieve by meaning as well as by words. An endpoint that fails leaves BM25 alone:
 * retrieval is worse, the report is still written.
 */
export async function embedSources(run: Run, sources: SourceBook, focuses: readonly string[]): Promise<void> {
  const port = run.deps.embeddings;
  if (!port || sources.size === 0) return;
  try {
    await sources.embed(port, focuses, run.job.signal);
  } catch (error) {
    checkpoint(run);
    run.deps.log.warn({ err: error, model: port.model, replyId: run.data.replyId }, 'the embedding endpoint failed; chunks are retrieved by BM25 alone');
  }
}

/** Sentences already in a report, so an extension does not quote them again. */
export function sentencesIn(body: string): Set<string> {
  return new Set(sentencesOf(body.replace(/\[\[?\d+\]?\]\([^)]*\)|\[\d+\]/g, '')).map(sentenceKey));
}

/** Offline sections, counted against the budget like the model call each stands in for. */
export async function writeExtract(run: Run, draft: Draft, sources: SourceBook, section: ExtractSection, picks: Extract[]): Promise<void> {
  const input = [section.focus, ...sources.all.filter((source) => !section.sources || section.sources.has(source.n)).map((source) => source.text)].join('\n');
  const written = await offlineWork(run, input, () => ({ text: extractText(picks, run.language) }));
  draft.cited(written.text);
  draft.endCited();
}

/** Opens a version of the canvas for this job's writing, or goes on with the one `shown` (its text so far) when the log has it open. */
export async function startWriting(run: Run, title: string, sources: SourceBook, shown = ''): Promise<Draft> {
  await command(run, 'write:start', { type: 'StartWriting', data: { messageId: run.data.replyId, title } });
  run.draft = new Draft(run, (n) => sources.urlOf(n), shown);
  return run.draft;
}

/** Saves the version; true when it was kept (not discarded as too short). */
export async function finishWriting(run: Run, draft: Draft): Promise<boolean> {
  draft.endCited();
  const result = await command(run, 'write:end', { type: 'FinishWriting', data: { messageId: run.data.replyId, content: draft.content, interrupted: false } });
  run.draft = null;
  return result.newEvents.some((event) => event.type === 'WritingVersionSaved');
}

/**
 * After a version: its blocks for the report view, cognition to read next, and the question of
 * what to do with it. Items a re-run finds already written are not written again.
 */
export async function afterWriting(run: Run, question: string, trace: Pick<StageTrace, 'outputs' | 'said'>): Promise<void> {
  const done = trace.outputs;
  const { state } = await run.deps.commands.load(conversationDecider, conversationStream(run.data.sessionId));
  if (state.status === 'none') return;
  const current = state.canvas.current;
  if (!current) {
    const message = run.language === 'zh' ? '没有写出可以保存的报告' : 'No report long enough to keep was written';
    await run.writer.output('error', { error_message: message });
    await run.writer.complete('failed', message);
    return;
  }
  if (!done.has('edit_report')) {
    const blocks = splitEditReport(current.content);
    await run.writer.output('edit_report', {
      title: current.title,
      artifact_id: CANVAS_ID,
      version: current.version,
      content: blocks.map((content, index) => ({ id: `${CANVAS_ID}-v${current.version}-${index + 1}`, content, destination: CANVAS_ID })),
    });
  }
  if (!done.has('cognition_recommendation')) await run.writer.output('cognition_recommendation', { items: await recommendations(run, question) });
  if (!run.deps.model.offline && !trace.said.has('research.tokensUsed')) {
    const tokens = runTokens(await run.deps.events.readStream(conversationStream(run.data.sessionId)), run.data.replyId);
    if (tokens > 0) await run.writer.progress({ code: 'research.tokensUsed', params: { tokens } });
  }
  await command(run, 'feedback', { type: 'RequestFeedback', data: { messageId: run.data.replyId } });
}

/** Cognition entries of the user's library that match the question; none when there is no library to search. */
async function recommendations(run: Run, question: string): Promise<Array<{ id: string; title: string; summary: string }>> {
  const local = run.deps.localSearch;
  if (!local) return [];
  try {
    const hits = await local.search(question, { limit: 10, signal: run.job.signal, userId: run.data.userId });
    return hits
      .filter((hit) => hit.source === 'cognition')
      .slice(0, 5)
      .map((hit) => ({ id: hit.id ?? hit.url, title: hit.title, summary: bestSentences(hit.snippet, termsOf(question), 1, 200) || clip(hit.snippet, 200) }));
  } catch (error) {
    checkpoint(run);
    run.deps.log.warn({ err: error, replyId: run.data.replyId }, 'cognition recommendations failed');
    return [];
  }
}

/** A re-run of a job that died while writing: the model would not write the same words again, so keep what it wrote. */
export async function saveCutShort(run: Run, text: string): Promise<void> {
  await command(run, 'write:end', { type: 'FinishWriting', data: { messageId: run.data.replyId, content: text, interrupted: true } });
  await run.writer.progress({ code: 'research.cutShortSaved', params: {} });
  await run.writer.complete('interrupted');
}

/**
 * Ends a job that could not go on. Whatever was being written is saved as an interrupted version
 * (spec: paused, crashed or out of budget alike); the reply ends as the cause says.
 */
export async function stop(run: Run, error: unknown): Promise<void> {
  const { deps, data, writer } = run;
  const { state } = await deps.commands.load(conversationDecider, conversationStream(data.sessionId));
  // Ended elsewhere meanwhile (a pause that found no running job, a new question), or carried on to
  // where it waits for the user by a job that took this one over: nothing to save into.
  if (state.status === 'none' || state.activeReply?.messageId !== data.replyId || state.awaiting !== null) return;
  if (state.canvas.writing?.messageId === data.replyId) {
    await command(run, 'write:end', { type: 'FinishWriting', data: { messageId: data.replyId, content: run.draft?.content ?? '', interrupted: true } });
  }
  if (error instanceof BudgetExhaustedError) {
    const item = failureItem(error);
    await writer.output('error', item);
    await writer.complete('failed', item.error_message);
    return;
  }
  if (run.job.signal.aborted) {
    await writer.progress({ code: 'research.interrupted', params: {} });
    await writer.complete('interrupted');
    return;
  }
  deps.log.warn({ err: error, sessionId: data.sessionId, replyId: data.replyId }, 'research failed');
  const item = failureItem(error);
  await writer.output('error', item);
  await writer.complete('failed', item.error_message);
}

/**
 * The files and notes the user attached to the session, numbered before anything searched: the
 * user chose them, so the report draws on them first. Their addresses match the local search's
 * (`note:<id>`), so finding one again later does not list it twice.
 */
export async function readAttached(run: Run, sources: SourceBook, late = false): Promise<void> {
  const material = run.deps.material;
  if (!material) return;
  checkpoint(run);
  const known = new Set(sources.all.map((source) => source.url));
  // Later, only what was attached since: the steps are researched, so it counts for the sections still to write.
  const attached = (await material.attached(run.data.sessionId, run.data.userId)).filter((doc) => !known.has(`${doc.kind}:${doc.id}`));
  if (attached.length === 0) return;
  for (const doc of attached) sources.add({ title: doc.title, url: `${doc.kind}:${doc.id}`, text: doc.text, attached: true });
  await run.writer.progress({ code: late ? 'research.attachedLate' : 'research.attachedRead', params: { count: attached.length, titles: attached.map((doc) => doc.title) } });
}
