/**
 * Texts the server sends in Chinese and the client words by key (daily tasks by `task_type`, platform
 * tools by name) must read the same in the client's zh catalogue, so a Chinese reader sees one text
 * whichever side words it, and every task and tool has an English wording.
 */
import test from 'ava';
import { createAgentToolPreview } from '@scriptorium/domain/tools/platform';
import { TASK_CATALOGUE } from '@scriptorium/domain/tasks/catalogue';
import { agentsEn } from '../../frontend/src/i18n/agents.en.ts';
import { agentsZh } from '../../frontend/src/i18n/agents.zh.ts';
import { tasksEn } from '../../frontend/src/i18n/tasks.en.ts';
import { tasksZh } from '../../frontend/src/i18n/tasks.zh.ts';

const interpolate = (text: string, count: number) => text.replaceAll('{{count}}', String(count));

test('every daily task is worded in zh as the server words it, and in en', (t) => {
  for (const task of TASK_CATALOGUE) {
    const zh = tasksZh.catalogue[task.taskId as keyof typeof tasksZh.catalogue];
    const en = tasksEn.catalogue[task.taskId as keyof typeof tasksEn.catalogue];
    t.truthy(zh && en, task.taskId);
    t.is(zh.name as string, task.name);
    t.is(interpolate(task.target === 1 ? zh.description_one : zh.description_other, task.target), task.description);
    t.notRegex(en.name + en.description_other, /[\u4e00-\u9fff]/);
  }
});

test('every platform tool is worded in zh as the server words it, and in en', (t) => {
  for (const tool of createAgentToolPreview().list()) {
    t.is(agentsZh.tools[tool.name as keyof typeof agentsZh.tools] as string, tool.description, tool.name);
    t.truthy(agentsEn.tools[tool.name as keyof typeof agentsEn.tools], tool.name);
  }
});
