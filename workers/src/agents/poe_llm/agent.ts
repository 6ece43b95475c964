import { z } from 'zod';
import { conversationStream } from '@scriptorium/backend/domain/conversation/conversation';
import { conversationDecider } from '@scriptorium/backend/domain/conversation/decide';
import type { AgentJobData } from '@scriptorium/backend/domain/conversation/jobs';
import { BUDGET_EXHAUSTED } from '@scriptorium/backend/domain/budget/guard';
import type { JobContext } from '@scriptorium/infra/queue/port';
import { ModelError, type ChatMessage, type ModelRequest } from '../../model/port.ts';
import { Allowance, BudgetExhaustedError } from '../allowance.ts';
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

/** Messages a user reads when a reply fails; the log keeps the technical reason. */
export function failureText(error: unknown): string {
  if (error instanceof ModelError) {
    switch (error.kind) {
      case 'rate_limited':
        return '模型服务繁忙，请稍后重试';
      case 'timeout':
        return '模型响应超时，请稍后重试';
      case 'auth':
        return '模型服务认证失败，请联系管理员检查配置';
      case 'bad_response':
        return '模型返回了无法解析的数据';
      case 'network':
      case 'server':
        return '模型服务暂时不可用，请稍后重试';
      case 'aborted':
        return '已停止生成';
    }
  }
  return '生成回复时出错';
}

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
    await writer.output('info', { content: '回复在生成过程中中断，已保留已生成的内容' });
    await writer.complete('interrupted');
    return;
  }

  const messages: ChatMessage[] = [{ role: 'system', content: POE_SYSTEM_PROMPT }, ...conversationHistory(events, { upTo: data.replyTo })];
  if (data.continues) {
    const partial = replyTrace(events, data.continues).text;
    if (partial) messages.push({ role: 'assistant', content: partial }, { role: 'user', content: '请从上次中断的地方继续，不要重复已经写过的内容。' });
  }
  let request: ModelRequest;
  try {
    request = await new Allowance(deps, data.userId, { sessionId: data.sessionId, messageId: data.replyId }).ensure({ messages });
  } catch (error) {
    if (!(error instanceof BudgetExhaustedError)) throw error;
    await writer.output('error', { error_message: BUDGET_EXHAUSTED, status: 402 });
    await writer.complete('failed', BUDGET_EXHAUSTED);
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
    if (job.signal.aborted) {
      await writer.output('info', { content: '已暂停生成，已保存已生成的内容' });
      await writer.complete('interrupted');
      return;
    }
    deps.log.warn({ err: error, sessionId: data.sessionId, replyId: data.replyId }, 'chat reply failed');
    const message = failureText(error);
    await writer.output('error', { error_message: message });
    await writer.complete('failed', message);
    return;
  }
  await writer.complete('completed');
  await titleSessionIfUntitled(deps, data, question, answer, writer);
}
