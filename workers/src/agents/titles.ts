import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import { conversationDecider } from '@scriptorium/domain/conversation/decide';
import type { AgentJobData } from '@scriptorium/domain/conversation/jobs';
import { partialUsageOf } from '@scriptorium/infra/model/port';
import type { Allowance } from '@scriptorium/domain/budget/allowance';
import type { AgentDeps } from './deps.ts';
import type { ReplyWriter } from './replyWriter.ts';
import { clip, languageOf } from './deep_cognition/text.ts';

const MAX_TITLE = 30;
/** A title is a few words; a model that reasons first needs room to finish thinking before it writes them. */
const TITLE_TOKENS = 40;
const TITLE_TOKENS_AFTER_REASONING = 1_024;
/** A report's own heading has the room a session list lacks. */
const MAX_REPORT_TITLE = 80;

/** The question's first sentence or clause, on one line. */
const firstClause = (question: string): string => {
  const line = question.replace(/\s+/g, ' ').trim();
  return line.split(/[。！？!?；;\n]/)[0]?.trim() || line;
};

/** Offline, the title is the question itself, cut at a sentence or clause boundary. */
export function headlineOf(question: string): string {
  const clause = firstClause(question);
  return clause.length > MAX_TITLE ? `${clause.slice(0, MAX_TITLE - 1)}…` : clause;
}

/**
 * A written report's heading from its brief: the first clause whole (a heading cut mid-word reads as
 * a typo), shortened at a word only past 80 characters, and starting with a capital in English.
 */
export function reportTitleOf(brief: string): string {
  const clause = clip(firstClause(brief), MAX_REPORT_TITLE);
  return clause.replace(/^[a-z]/, (first) => first.toUpperCase());
}

/**
 * What a model answered as a title, made fit to be one: its first line, without markup (a model
 * that ignores the instruction may answer with a page), quotes or closing punctuation, cut short.
 * Empty when nothing usable is left.
 */
export function cleanTitle(generated: string): string {
  const line = generated
    .replace(/<artifact\b[\s\S]*?(?:<\/artifact>|$)/g, ' ')
    .replace(/<[^>]*>?/g, ' ')
    .split(/\r?\n/)
    .map((candidate) => candidate.replace(/\s+/g, ' ').trim())
    .find(Boolean);
  const title = (line ?? '').replace(/^(标题[:：]\s*)?["'“”《]+|["'“”》。.!！:：]+$/g, '').trim();
  return title.length > MAX_TITLE ? `${title.slice(0, MAX_TITLE - 1)}…` : title;
}

/**
 * Asked in the user's language: a model asked in Chinese about an English question may answer in
 * Chinese, or keep the Chinese label of the question as part of the title.
 */
function titleMessages(question: string, answer: string): Array<{ role: 'system' | 'user'; content: string }> {
  const asked = question.slice(0, 2000);
  const answered = answer.slice(0, 2000);
  return languageOf(question) === 'zh'
    ? [
        { role: 'system', content: '为下面的对话起一个简短的标题（不超过 20 个字，不要引号和句末标点），使用与用户相同的语言。只输出标题。' },
        { role: 'user', content: `问题：${asked}\n\n回答：${answered}` },
      ]
    : [
        { role: 'system', content: "Give the conversation below a short title (at most 8 words, no quotes, no closing punctuation), in the user's language. Output only the title." },
        { role: 'user', content: `Question: ${asked}\n\nAnswer: ${answered}` },
      ];
}

/**
 * After the first exchange a session without a title gets one; the title change reaches every
 * socket of the user as a metadata_update. The call is the reply's: fitted and capped by the
 * reply's allowance and counted in it, so a user whose budget is spent gets the question as title.
 */
export async function titleSessionIfUntitled(deps: AgentDeps, job: AgentJobData, question: string, answer: string, writer: ReplyWriter, allowance: Allowance): Promise<void> {
  const { state } = await deps.commands.load(conversationDecider, conversationStream(job.sessionId));
  if (state.status === 'none' || state.title !== null) return;
  let title = headlineOf(question);
  if (!deps.model.offline) {
    try {
      const { profile } = deps.model;
      const request = await allowance.ensure(
        {
          messages: titleMessages(question, answer),
          temperature: 0.2,
          maxTokens: profile.reasoning === 'none' ? TITLE_TOKENS : TITLE_TOKENS_AFTER_REASONING,
        },
        profile,
      );
      const completion = await deps.model.complete(request);
      allowance.record(completion.usage);
      await writer.tokens(completion.usage);
      const generated = cleanTitle(completion.text);
      if (generated) title = generated;
    } catch (error) {
      const spent = partialUsageOf(error);
      if (spent) {
        allowance.record(spent);
        await writer.tokens(spent);
      }
      deps.log.warn({ err: error, sessionId: job.sessionId }, 'title generation failed; using the question');
    }
  }
  await deps.commands.handle(
    conversationDecider,
    conversationStream(job.sessionId),
    { type: 'SetTitle', data: { actorId: job.userId, title, source: 'generated' }, metadata: { now: deps.clock(), userId: job.userId, correlationId: job.replyId } },
    { commandId: `${job.replyId}:title` },
  );
}
