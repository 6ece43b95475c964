import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider } from '@scriptorium/domain/conversation/decide';
import type { AgentJobData } from '@scriptorium/domain/conversation/jobs';
import type { JobContext } from '@scriptorium/infra/queue/port';
import { Allowance } from '@scriptorium/domain/budget/allowance';
import type { AgentDeps } from '../deps.ts';
import { conversationHistory, writerStart } from '../history.ts';
import { jobData } from '../poe_llm/agent.ts';
import { ReplyWriter } from '../replyWriter.ts';
import { reportTitleOf } from '../titles.ts';
import { directWritingPrompt } from '../deep_cognition/prompts.ts';
import { checkpoint, runPools, streamModel, type Run } from '../deep_cognition/run.ts';
import { assignExtracts, type ExtractSection } from '../deep_cognition/extracts.ts';
import { SourceBook } from '../deep_cognition/sources.ts';
import { finishWriting, readAttached, saveCutShort, startWriting, stop, writeExtract } from '../deep_cognition/steps.ts';
import { languageOf } from '../deep_cognition/text.ts';
import { replyRecord, stageTrace } from '../deep_cognition/trace.ts';

const MATERIAL = 6;

const OFFLINE_LABEL = {
  zh: '> 【离线模式】未配置语言模型：离线引擎不能按要求创作，以下是从你的资料中找到的与写作要求相关的内容，供写作参考。',
  en: '> [Offline mode] No language model is configured: the offline engine cannot write to a brief; below is what your material says about it, for reference.',
};

/**
 * Writes a report or article from the user's brief straight into the canvas: no questions, no plan,
 * no feedback loop. The user's own material (notes, uploads, cognition) is handed over as
 * numbered sources when there is a search over it.
 */
export async function runDirectWriting(deps: AgentDeps, job: JobContext<unknown>): Promise<void> {
  const data = jobData.parse(job.data) as AgentJobData;
  const stream = conversationStream(data.sessionId);
  const { state } = await deps.commands.load(conversationDecider, stream);
  if (state.status === 'none' || state.activeReply?.messageId !== data.replyId || state.activeReply.jobId !== job.id) return;
  const events = await deps.events.readStream(stream);
  const brief = replyRecord(events, data.replyId, data.replyTo).question;
  const trace = stageTrace(events, data.replyId, job.id);
  const run: Run = {
    deps,
    job,
    data,
    writer: new ReplyWriter(deps, data, writerStart(events, data.replyId)),
    allowance: new Allowance(deps, data.userId, { sessionId: data.sessionId, messageId: data.replyId }, deps.model.profile),
    language: languageOf(brief),
    draft: null,
    notes: [],
    pools: runPools(deps, data.userId),
  };
  if (state.canvas.writing?.messageId === data.replyId) {
    await saveCutShort(run, trace.writingText);
    return;
  }
  if (trace.savedVersion !== null) {
    await run.writer.complete('completed');
    return;
  }

  try {
    const sources = new SourceBook();
    await readAttached(run, sources);
    if (deps.localSearch) {
      try {
        for (const hit of await deps.localSearch.search(brief, { limit: MATERIAL, signal: job.signal, userId: data.userId })) {
          sources.add({ title: hit.title, url: hit.url, text: hit.snippet });
        }
      } catch (error) {
        checkpoint(run);
        deps.log.warn({ err: error, replyId: data.replyId }, 'material search failed; writing from the brief alone');
      }
    }
    const title = reportTitleOf(brief);
    const draft = await startWriting(run, title, sources);
    if (deps.model.offline) {
      draft.plain(`# ${title}\n\n${OFFLINE_LABEL[run.language]}\n\n`);
      const section: ExtractSection = { focus: brief };
      await writeExtract(run, draft, sources, section, assignExtracts(sources.all, brief, [section], new Set())[0]!);
    } else {
      const history = conversationHistory(events, { upTo: data.replyTo });
      await streamModel(run, 'writing', { messages: [{ role: 'system', content: directWritingPrompt(run.language) }, ...history], ...(sources.size > 0 && { context: sources.context(undefined, run.language) }) }, (text) => draft.cited(text));
      draft.endCited();
    }
    if (sources.size > 0) draft.plain(`\n\n${sources.markdown(run.language)}`);
    const kept = await finishWriting(run, draft);
    if (!kept) {
      const message = run.language === 'zh' ? '写出的内容过短，未保存' : 'What was written was too short to keep';
      await run.writer.output('error', { error_message: message });
      await run.writer.complete('failed', message);
      return;
    }
    await run.writer.complete('completed');
  } catch (error) {
    await stop(run, error);
  }
}
