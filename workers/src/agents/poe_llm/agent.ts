import { failureItem } from '@scriptorium/domain/conversation/failures';
import { z } from 'zod';
import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider } from '@scriptorium/domain/conversation/decide';
import type { AgentJobData } from '@scriptorium/domain/conversation/jobs';
import type { JobContext } from '@scriptorium/infra/queue/port';
import { partialUsageOf, type ChatMessage, type ModelRequest } from '@scriptorium/infra/model/port';
import { Allowance, BudgetExhaustedError } from '@scriptorium/domain/budget/allowance';
import type { AgentDeps } from '../deps.ts';
import { conversationHistory, replyTrace } from '../history.ts';
import { ReplyWriter } from '../replyWriter.ts';
import { titleSessionIfUntitled } from '../titles.ts';
import { ArtifactSplitter, filetypeOf } from './artifacts.ts';

export const POE_SYSTEM_PROMPT = [
  '你是 Scriptorium 的通用对话助手，回答准确、简洁、有条理，使用与用户相同的语言。',
  '当用户需要一个完整的网页或一篇独立的文档时，把它完整地放在 <artifact filename="文件名.html" type="text/html"> 与 </artifact> 之间',
  '（Markdown 文档用 type="text/markdown" 和 .md 文件名），标签外只写一两句说明。其他回答不要使用这个标签。',
].join('');

export const jobData = z.object({
  sessionId: z.string().min(1),
  userId: z.string().min(1),
  agent: z.string(),
  replyId: z.string().min(1),
  replyTo: z.string().min(1),
  continues: z.string().optional(),
});

/**
 * The general chat agent: streams the model's answer as chat_chunk, turns `<artifact>` blocks into
 * artifact_start/artifact_complete, records token usage, and names the session after the first exchange.
 */
export async function runPoeLlm(deps: AgentDeps, job: JobContext<unknown>): Promise<void> {
  const data = jobData.parse(job.data) as AgentJobData;
  const stream = conversationStream(data.sessionId);
  const { state } = await deps.commands.load(conversationDecider, stream);
  if (state.status === 'none' || state.activeReply?.messageId !== data.replyId) return;

  const events = await deps.events.readStream(stream);
  const writer = new ReplyWriter(deps, data);
  if (replyTrace(events, data.replyId).written > 0) {
    // An earlier run died mid-reply. The model would not say the same words again, so keep what was written.
    await writer.progress({ code: 'chat.cutShortKept', params: {} });
    await writer.complete('interrupted');
    return;
  }

  const messages: ChatMessage[] = [{ role: 'system', content: POE_SYSTEM_PROMPT }, ...conversationHistory(events, { upTo: data.replyTo })];
  if (data.continues) {
    const partial = replyTrace(events, data.continues).text;
    if (partial) messages.push({ role: 'assistant', content: partial }, { role: 'user', content: '请从上次中断的地方继续，不要重复已经写过的内容。' });
  }
  const allowance = new Allowance(deps, data.userId, { sessionId: data.sessionId, messageId: data.replyId });
  let request: ModelRequest;
  try {
    request = await allowance.ensure({ messages }, deps.model.profile);
  } catch (error) {
    if (!(error instanceof BudgetExhaustedError)) throw error;
    const item = failureItem(error);
    await writer.output('error', item);
    await writer.complete('failed', item.error_message);
    return;
  }
  const question = messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';

  const splitter = new ArtifactSplitter();
  let answer = '';
  const route = async (pieces: ReturnType<ArtifactSplitter['push']>) => {
    for (const piece of pieces) {
      if (piece.kind === 'text') {
        answer += piece.text;
        writer.text('chat_chunk', piece.text);
      } else if (piece.kind === 'artifact_start') {
        await writer.output('artifact_start', { filename: piece.filename, artifact_type: piece.artifactType, filetype: filetypeOf(piece.artifactType), status: 'in_progress' });
      } else {
        await writer.output('artifact_complete', {
          filename: piece.filename,
          artifact_type: piece.artifactType,
          filetype: filetypeOf(piece.artifactType),
          content: piece.content,
          status: 'completed',
        });
      }
    }
  };

  try {
    for await (const delta of deps.model.stream({ ...request, signal: job.signal })) {
      if (delta.type === 'text') await route(splitter.push(delta.text));
      else await writer.tokens(delta);
    }
    await route(splitter.end());
  } catch (error) {
    await route(splitter.end());
    // A reply cut midway still cost what the model wrote of it.
    const spent = partialUsageOf(error);
    if (spent) await writer.tokens(spent);
    if (job.signal.aborted) {
      await writer.progress({ code: 'chat.paused', params: {} });
      await writer.complete('interrupted');
      return;
    }
    deps.log.warn({ err: error, sessionId: data.sessionId, replyId: data.replyId }, 'chat reply failed');
    const item = failureItem(error);
    await writer.output('error', item);
    await writer.complete('failed', item.error_message);
    return;
  }
  await writer.complete('completed');
  await titleSessionIfUntitled(deps, data, question, answer, writer, allowance);
}
