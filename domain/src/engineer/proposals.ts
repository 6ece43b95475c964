import { RUN_COMMAND_TOOL } from '../protocol/engineer.ts';

/**
 * What the offline engine (no model configured) proposes when a client offers the `run_command`
 * tool: not a model's judgement but a fixed table of everyday requests, in Chinese and English,
 * each mapped to one harmless command. The reply says so, so nobody takes it for a model's choice.
 */
const INTENTS: readonly { command: string; pattern: RegExp }[] = [
  { command: 'ls -la', pattern: /\b(list|show)\b.*\bfiles?\b|\bwhat files\b|\bls\b|列出.*文件|文件列表|有(哪些|什么)文件|看看.*文件/i },
  { command: 'npm test', pattern: /\b(run|rerun|re-run)\b.*\btests?\b|\btests? again\b|\bnpm test\b|(运行|跑|执行|再跑|重新跑|重跑).*测试/i },
  { command: 'git status', pattern: /\bgit status\b|\bwhat (has )?changed\b|\buncommitted\b|仓库状态|(哪些|什么)(改动|修改|变更)|未提交/i },
  { command: 'git log --oneline -10', pattern: /\b(recent|last|latest) commits?\b|\bgit log\b|最近.*提交|提交记录/i },
  { command: 'pwd', pattern: /\b(current|working) directory\b|\bwhere am i\b|\bpwd\b|当前目录|所在目录|(在|是)哪个目录/i },
];

export interface OfflineProposal {
  /** The label the reply carries, in the language of the request. */
  text: string;
  /** The call's arguments as the tools protocol sends them: JSON text. */
  arguments: string;
  command: string;
}

/** The proposal for the last user message, or null when no rule matches (the offline engine then answers in text). */
export function offlineProposal(message: string): OfflineProposal | null {
  const intent = INTENTS.find(({ pattern }) => pattern.test(message));
  if (!intent) return null;
  const text = /\p{Script=Han}/u.test(message)
    ? `离线规则（未配置模型）：建议运行 \`${intent.command}\``
    : `Offline rule (no model configured): suggest running \`${intent.command}\``;
  return { text, command: intent.command, arguments: JSON.stringify({ command: intent.command }) };
}

/** The function a client offers for proposals, in the shape the OpenAI tools protocol describes it. */
export const RUN_COMMAND_FUNCTION = {
  name: RUN_COMMAND_TOOL,
  description: 'Propose one shell command to run in the user’s project directory. It runs only after the user approves it; its output comes back in the next message.',
  parameters: { type: 'object', properties: { command: { type: 'string', description: 'The command line, as typed in a POSIX shell' } }, required: ['command'], additionalProperties: false },
};
