import { z } from 'zod';
import { conversationStream, type ConversationEvent } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider } from '@scriptorium/domain/conversation/decide';
import type { TargetedEditJobData } from '@scriptorium/domain/conversation/jobs';
import { DomainError } from '@scriptorium/infra/eventsourcing/decider';
import type { JobContext } from '@scriptorium/infra/queue/port';
import { partialUsageOf, type ModelRequest } from '@scriptorium/infra/model/port';
import { Allowance, BudgetExhaustedError } from '@scriptorium/domain/budget/allowance';
import type { AgentDeps } from '../deps.ts';
import { writerStart } from '../history.ts';
import { failureItem } from '@scriptorium/domain/conversation/failures';
import { ReplyWriter } from '../replyWriter.ts';
import { EDIT_PROMPT } from '../deep_cognition/prompts.ts';
import { languageOf } from '../deep_cognition/text.ts';
import { cleanEdited, offlineEdit } from './rewrite.ts';
import { checkedEdit, type CheckedEdit } from './check.ts';
import { worthSaying } from '../deep_cognition/checkCitations.ts';
import { runPools, type Run } from '../deep_cognition/run.ts';

export const editJobData = z.object({
  sessionId: z.string().min(1),
  userId: z.string().min(1),
  requestId: z.string().min(1),
  instruction: z.string().min(1),
  snippet: z.string().min(1),
  fromVersion: z.number().int().min(1),
  offset: z.number().int().min(0).optional(),
});

/** Characters of the report on each side of the selection that the model sees, so the edit fits its place. */
const SURROUNDING = 400;

/**
 * Rewrites the selected snippet of the current canvas version as instructed and saves the result as
 * a new version (the socket shows it as targeted_edit_result). Only the snippet changes: the
 * domain replaces exactly that text. A request that cannot be carried out ends with an error item.
 */
export async function runTargetedEdit(deps: AgentDeps, job: JobContext<unknown>): Promise<void> {
  const data = editJobData.parse(job.data) as TargetedEditJobData;
  const stream = conversationStream(data.sessionId);
  const events = await deps.events.readStream(stream);
  const mine = (event: ConversationEvent) =>
    (event.type === 'TargetedEditApplied' && event.data.requestId === data.requestId) ||
    (event.type === 'AgentOutputRecorded' && event.data.messageId === data.requestId && event.data.contentType === 'error');
  // Applied or refused by an earlier run: a request is answered once.
  if (events.some((recorded) => mine({ type: recorded.type, data: recorded.data } as ConversationEvent))) return;

  const writer = new ReplyWriter(deps, { sessionId: data.sessionId, userId: data.userId, agent: 'targeted_edit', replyId: data.requestId }, writerStart(events, data.requestId));
  // Texts the agent words in the session's language need no code; a catalogue failure brings its own.
  const refuse = async (item: string | { error_message: string; code?: string; status?: number }) => {
    await writer.output('error', { ...(typeof item === 'string' ? { error_message: item } : item), request_id: data.requestId });
  };
  const { state } = await deps.commands.load(conversationDecider, stream);
  if (state.status === 'none') return;
  const current = state.canvas.current;
  const zh = languageOf(current?.content ?? data.instruction) === 'zh';
  const at = data.offset ?? current?.content.indexOf(data.snippet) ?? -1;
  if (!current || current.version !== data.fromVersion || at < 0 || !current.content.startsWith(data.snippet, at)) {
    await refuse(zh ? '选中的文本已不在当前版本中（报告可能已更新），请重新选择后再试' : 'The selected text is no longer in the current version; select it again and retry');
    return;
  }

  let edited: string;
  if (deps.model.offline) {
    const result = offlineEdit(data.instruction, data.snippet, zh ? 'zh' : 'en');
    if (!result.ok) {
      await refuse(result.reason);
      return;
    }
    edited = result.text;
  } else {
    const before = current.content.slice(Math.max(0, at - SURROUNDING), at);
    const after = current.content.slice(at + data.snippet.length, at + data.snippet.length + SURROUNDING);
    let request: ModelRequest;
    try {
      request = await new Allowance(deps, data.userId).ensure({
        messages: [
          { role: 'system', content: EDIT_PROMPT },
          { role: 'user', content: `上下文（仅供参考，不要输出）：\n${before}【待修改片段】${after}\n\n待修改片段：\n${data.snippet}\n\n修改指令：${data.instruction}` },
        ],
        temperature: 0.3,
        maxTokens: Math.min(4000, data.snippet.length * 3 + 200),
      }, deps.model.profile);
    } catch (error) {
      if (!(error instanceof BudgetExhaustedError)) throw error;
      await refuse(failureItem(error));
      return;
    }
    try {
      const completion = await deps.model.complete({ ...request, signal: job.signal });
      await writer.tokens(completion.usage);
      edited = cleanEdited(completion.text, data.snippet);
    } catch (error) {
      const spent = partialUsageOf(error);
      if (spent) await writer.tokens(spent);
      deps.log.warn({ err: error, requestId: data.requestId }, 'targeted edit failed');
      await refuse(job.signal.aborted ? (zh ? '修改被中断，请重试' : 'The edit was interrupted; please retry') : failureItem(error));
      return;
    }
  }

  // The edit's sentences are checked as the research checks its own before the version is saved.
  const run: Run = {
    deps,
    job,
    data: { sessionId: data.sessionId, userId: data.userId, agent: 'targeted_edit', replyId: data.requestId, replyTo: data.requestId },
    writer,
    allowance: new Allowance(deps, data.userId),
    language: zh ? 'zh' : 'en',
    draft: null,
    notes: [],
    pools: runPools(deps, data.userId),
  };
  let checked: CheckedEdit;
  try {
    checked = await checkedEdit(run, events, current, at, data.snippet, edited);
  } catch (error) {
    deps.log.warn({ err: error, requestId: data.requestId }, "checking a targeted edit's citations failed");
    await refuse(job.signal.aborted ? (zh ? '修改被中断，请重试' : 'The edit was interrupted; please retry') : failureItem(error));
    return;
  }

  try {
    await deps.commands.handle(
      conversationDecider,
      stream,
      {
        type: 'ApplyTargetedEdit',
        data: {
          actorId: data.userId,
          requestId: data.requestId,
          instruction: data.instruction,
          snippet: checked.snippet,
          editedSnippet: checked.edited,
          fromVersion: data.fromVersion,
          offset: checked.offset,
          citations: checked.citations,
        },
        metadata: { now: deps.clock(), userId: data.userId, correlationId: data.requestId },
      },
      { commandId: `edit:${data.requestId}` },
    );
  } catch (error) {
    // The report moved on while the edit was being written (a new version, the text edited away).
    if (!(error instanceof DomainError)) throw error;
    await refuse(error.message);
    return;
  }
  if (worthSaying(checked)) await writer.progress({ code: 'research.editChecked', params: checked.tally });
}
