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
import { BROWSE_PROMPT, JUDGE_PROMPT, browseSchema, judgeSchema } from './prompts.ts';
import { checkpoint, command, completeJson, Draft, offlineWork, type Run } from './run.ts';
import type { SourceBook } from './sources.ts';
import type { StoredPage } from './trace.ts';
import { extractText, sentenceKey, type Extract, type ExtractSection } from './extracts.ts';
import { clip, sentencesOf, splitEditReport, termsOf } from './text.ts';

const RESULTS_PER_QUERY = 6;
const RESULTS_PER_ROUND = 8;
const PAGES_PER_ROUND = 3;

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

/** Runs the queries, judges the hits and records them as one search round. */
export async function searchRound(run: Run, searcher: Searcher | null, queries: string[], about: string, step: string): Promise<WebResult[]> {
  checkpoint(run);
  await run.writer.output('web_search_queries', { queries });
  const hits: SearchHit[] = [];
  for (const query of queries) {
    if (!searcher) break;
    checkpoint(run);
    try {
      hits.push(...(await searcher.port.search(query, { limit: RESULTS_PER_QUERY, signal: run.job.signal, userId: run.data.userId, language: run.language === 'zh' ? 'zh-CN' : 'en' })));
    } catch (error) {
      checkpoint(run);
      run.deps.log.warn({ err: error, query, replyId: run.data.replyId }, 'a search failed');
      await run.writer.progress({ code: 'research.searchFailed', params: { query } });
    }
  }
  const unique = hits.filter((hit, index) => hits.findIndex((other) => other.url === hit.url) === index).slice(0, RESULTS_PER_ROUND);
  // The rules judge by the queries: a whole question has too many words for any snippet to cover.
  const results = (await judgeWithModel(run, unique, about)) ?? judge(unique, queries.join(' '));
  await command(run, step, { type: 'RecordSearchResults', data: { messageId: run.data.replyId, queries, results } });
  return results;
}

async function judgeWithModel(run: Run, hits: SearchHit[], about: string): Promise<WebResult[] | null> {
  if (run.deps.model.offline || hits.length === 0) return null;
  const listed = hits.map((hit, index) => `[${index + 1}] ${hit.title}\n${hit.url}\n${clip(hit.snippet, 400)}`).join('\n\n');
  const judged = await completeJson(run, 'judging', 'judge', judgeSchema, [
    { role: 'system', content: JUDGE_PROMPT },
    { role: 'user', content: `研究内容：${about}\n\n搜索结果：\n${listed}` },
  ]);
  if (!judged) return null;
  return hits.map((hit, index) => {
    const verdict = judged.results.find((result) => result.index === index + 1);
    const useful = verdict?.has_useful_info ?? false;
    return { title: hit.title, url: hit.url, snippet: hit.snippet, has_useful_info: useful, useful_info_summary: useful ? (verdict?.useful_info_summary ?? '') : '' };
  });
}

const readable = (url: string) => /^https?:\/\//i.test(url);

/** Characters of a page kept in the log: enough for every passage a section or a revision may need. */
const STORED_PAGE_CHARS = 40_000;

/**
 * Reads the most useful pages of a round with the spec's progress items and adds what was learnt
 * to the sources; useful results that are not read count by their snippets. Each page read is
 * recorded with its text, so a job that goes on later reads it from the log (`stored`) instead of
 * fetching and summarising it again. `announce: false` for a round a job that stopped had already
 * read to the end: the conversation, which already shows it, gets nothing twice.
 */
export async function browseRound(
  run: Run,
  results: WebResult[],
  about: string,
  sources: SourceBook,
  { announce = true, stored = new Map() }: { announce?: boolean; stored?: ReadonlyMap<string, StoredPage> } = {},
): Promise<Set<number>> {
  const fetcher = run.deps.fetcher;
  const output: Run['writer']['output'] = (contentType, payload) => (announce ? run.writer.output(contentType, payload) : Promise.resolve());
  const found = new Set<number>();
  const useful = results.filter((result) => result.has_useful_info);
  const toRead = fetcher ? useful.filter((result) => readable(result.url) && !sources.has(result.url)).slice(0, PAGES_PER_ROUND) : [];
  for (const result of useful) {
    if (!toRead.includes(result)) found.add(sources.add({ title: result.title, url: result.url, text: [result.snippet, result.useful_info_summary].filter(Boolean).join('\n') }));
  }
  if (!fetcher || toRead.length === 0) return found;
  const urls = toRead.map((result) => result.url);
  const fresh = toRead.filter((result) => !stored.has(result.url));
  if (fresh.length > 0) {
    await output('web_browsing_start', { urls, message: 'Browsing Webpages .....' });
    await output('web_scraping_start', { urls, message: 'Scraping Webpages .....' });
  }
  const pages: Array<{ result: WebResult; title: string; text: string; summary?: string }> = [];
  const failed: WebResult[] = [];
  for (const [index, result] of toRead.entries()) {
    const known = stored.get(result.url);
    if (known) {
      pages.push({ result, title: known.title, text: known.text, summary: known.summary });
      continue;
    }
    checkpoint(run);
    await output('web_browsing_in_progress', { url: result.url, title: result.title, index: index + 1, total: toRead.length });
    try {
      const page = await fetcher.fetch(result.url, { signal: run.job.signal });
      if (page.text.trim()) pages.push({ result, title: page.title.trim() || result.title, text: page.text });
      else failed.push(result);
    } catch (error) {
      checkpoint(run);
      run.deps.log.info({ err: error, url: result.url, replyId: run.data.replyId }, 'a page could not be read');
      failed.push(result);
    }
  }
  const unread = pages.filter((page) => page.summary === undefined);
  if (fresh.length > 0) await output('web_scraping_end', { count: pages.length, message: `Get Information from ${pages.length} Webpages....` });
  const summaries = (await summariseWithModel(run, unread, about)) ?? unread.map((page) => pageSummary(page.text, about));
  for (const [index, page] of unread.entries()) {
    page.summary = summaries[index] || pageSummary(page.text, about);
    await command(run, `page:${page.result.url}`, { type: 'RecordPage', data: { messageId: run.data.replyId, url: page.result.url, title: page.title, text: clip(page.text, STORED_PAGE_CHARS), summary: page.summary } });
    await output('web_browsing_result', { url: page.result.url, title: page.title, ok: true, summary: page.summary });
  }
  for (const page of pages) found.add(sources.add({ title: page.title, url: page.result.url, text: `${page.summary}\n\n${page.text}` }));
  for (const result of failed) {
    await output('web_browsing_result', { url: result.url, title: result.title, ok: false, error: run.language === 'zh' ? '网页读取失败' : 'The page could not be read' });
    found.add(sources.add({ title: result.title, url: result.url, text: [result.snippet, result.useful_info_summary].filter(Boolean).join('\n') }));
  }
  if (fresh.length > 0) await output('web_browsing_llm_end', { message: 'Browsing Webpages Finished' });
  return found;
}

async function summariseWithModel(run: Run, pages: Array<{ title: string; text: string }>, about: string): Promise<string[] | null> {
  if (run.deps.model.offline || pages.length === 0) return null;
  const listed = pages.map((page, index) => `[${index + 1}] ${page.title}\n${clip(page.text, 3000)}`).join('\n\n');
  const summarised = await completeJson(run, 'summarising', 'summarise', browseSchema, [
    { role: 'system', content: BROWSE_PROMPT },
    { role: 'user', content: `研究内容：${about}\n\n网页：\n${listed}` },
  ]);
  if (!summarised) return null;
  return pages.map((_, index) => summarised.pages.find((page) => page.index === index + 1)?.summary.trim() ?? '');
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
export async function afterWriting(run: Run, question: string, done: ReadonlySet<string>): Promise<void> {
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
export async function readAttached(run: Run, sources: SourceBook): Promise<void> {
  const material = run.deps.material;
  if (!material) return;
  checkpoint(run);
  const attached = await material.attached(run.data.sessionId, run.data.userId);
  if (attached.length === 0) return;
  for (const doc of attached) sources.add({ title: doc.title, url: `${doc.kind}:${doc.id}`, text: doc.text });
  await run.writer.progress({ code: 'research.attachedRead', params: { count: attached.length, titles: attached.map((doc) => doc.title) } });
}
