import { z } from 'zod';

export interface DemoStep {
  thought: string;
  command: string;
}

export const planSchema = z.object({ steps: z.array(z.object({ thought: z.string().trim().min(1).max(500), command: z.string().trim().min(1).max(2000) })).min(1).max(6) });

export const PLAN_PROMPT =
  '你是在一个隔离的 Linux 工作区（/workspace，没有网络，只有系统自带的命令）里完成任务的工程师。' +
  '为给出的任务写 2 到 6 个 shell 步骤，每步一句说明和一条命令，命令只在当前目录里读写文件。' +
  '只输出一个 JSON 对象：{"steps": [{"thought": "这一步做什么、为什么", "command": "sh 命令"}]}';

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The labelled plan used when no model is configured: the same four steps for any task, so an
 * offline demo shows how a session records work (files written, commands run, their output, the
 * sandbox's bounds) without pretending to solve the task.
 */
export function offlinePlan(task: string): DemoStep[] {
  return [
    { thought: '离线演示模板（未配置模型）：先把任务写进工作区。', command: `printf '# 任务\\n\\n%s\\n' ${quote(task)} > TASK.md && cat TASK.md` },
    { thought: '写一个统计任务字数的小脚本并运行它。', command: `printf '#!/bin/sh\\nwc -m < TASK.md\\n' > count.sh && sh count.sh` },
    { thought: '看看工作区里现在有什么。', command: 'ls -la' },
    { thought: '确认沙箱里没有网络：只应看到回环接口。', command: "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '" },
  ];
}
