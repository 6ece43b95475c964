import { z } from 'zod';

export interface DemoStep {
  thought: string;
  command: string;
}

export const planSchema = z.object({ steps: z.array(z.object({ thought: z.string().trim().min(1).max(500), command: z.string().trim().min(1).max(2000) })).min(1).max(6) });

export const PLAN_PROMPT =
  '你是在一个隔离的 Linux 工作区（/workspace，没有网络，只有系统自带的命令和 node）里完成任务的工程师。' +
  '为给出的任务写 2 到 6 个 shell 步骤，每步一句说明和一条命令，命令只在当前目录里读写文件。' +
  '只输出一个 JSON 对象：{"steps": [{"thought": "这一步做什么、为什么", "command": "sh 命令"}]}';

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The offline template speaks the task's language: Chinese when the task has Han characters, English otherwise. */
export type PlanLanguage = 'zh' | 'en';
export const taskLanguage = (task: string): PlanLanguage => (/\p{Script=Han}/u.test(task) ? 'zh' : 'en');

export const OFFLINE_PLAN_TITLE: Record<PlanLanguage, string> = { zh: '离线演示模板', en: 'Offline demo template' };

const THOUGHTS: Record<PlanLanguage, readonly string[]> = {
  zh: [
    '离线演示模板（未配置模型）：任何任务都走同样的步骤。先把任务写进工作区。',
    '搭一个小小的 Node 项目。',
    '写一个函数：统计一段文字的字数（每个汉字算一个，其他文字按词算）。',
    '用 node:test 为它写测试，也数一数任务本身。',
    '运行测试。',
    '确认沙箱里没有网络：只应看到回环接口。',
  ],
  en: [
    'Offline demo template (no model configured): the same steps for any task. First, write the task into the workspace.',
    'Scaffold a small Node project.',
    'Write a function that counts the words of a text (each Han character is one word).',
    'Write its tests with node:test, counting the task itself too.',
    'Run the tests.',
    'Check that the sandbox has no network: only the loopback interface should show.',
  ],
};

const PACKAGE_JSON = '{\n  "name": "demo",\n  "private": true,\n  "type": "module",\n  "scripts": { "test": "node --test" }\n}';

const FUNCTION = `// Each Han character is a word; any other run of letters or digits is one word.
export function countWords(text) {
  return (text.match(/\\p{Script=Han}|(?:(?!\\p{Script=Han})[\\p{L}\\p{N}])+/gu) ?? []).length;
}`;

const TESTS = `import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { countWords } from '../src/count.js';

test('an empty text has no words', () => assert.equal(countWords(''), 0));
test('other words are counted by runs', () => assert.equal(countWords('write a test, then run it'), 6));
test('each Han character is a word', () => assert.equal(countWords('统计字数 and more'), 6));
test('the task has words', () => {
  const words = countWords(readFileSync(new URL('../TASK.md', import.meta.url), 'utf8'));
  console.log('TASK.md: ' + words + ' words');
  assert.ok(words > 0);
});`;

/**
 * The labelled plan used when no model is configured: the same steps for any task (a small Node
 * project, a function, its tests, a test run, the sandbox's bounds), so an offline demo shows how a
 * session records real work — files written, commands run, their output — without pretending to
 * solve the task. Worded in the task's language.
 */
export function offlinePlan(task: string): DemoStep[] {
  const language = taskLanguage(task);
  const thoughts = THOUGHTS[language];
  const commands = [
    `printf '# %s\\n\\n%s\\n' ${quote(language === 'zh' ? '任务' : 'Task')} ${quote(task)} > TASK.md && cat TASK.md`,
    `mkdir -p src test && cat > package.json <<'JSON'\n${PACKAGE_JSON}\nJSON\ncat package.json`,
    `cat > src/count.js <<'JS'\n${FUNCTION}\nJS\ncat src/count.js`,
    `cat > test/count.test.js <<'JS'\n${TESTS}\nJS\nls -R src test`,
    'node --test --test-reporter=spec',
    "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '",
  ];
  return commands.map((command, index) => ({ thought: thoughts[index]!, command }));
}
