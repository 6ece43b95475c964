import test from 'ava';
import { offlineProposal } from './proposals.ts';

test('the offline rule maps everyday requests in Chinese and English to one command, labelled as a rule, and nothing else', (t) => {
  const cases: [string, string][] = [
    ['list the files', 'ls -la'],
    ['Show me the files here', 'ls -la'],
    ['列出文件', 'ls -la'],
    ['这里有哪些文件？', 'ls -la'],
    ['run the tests again', 'npm test'],
    ['再跑一遍测试', 'npm test'],
    ['运行测试', 'npm test'],
    ['git status', 'git status'],
    ['有哪些改动？', 'git status'],
    ['show the recent commits', 'git log --oneline -10'],
    ['what is the current directory?', 'pwd'],
    ['当前目录是哪里', 'pwd'],
  ];
  for (const [message, command] of cases) {
    const proposal = offlineProposal(message);
    t.is(proposal?.command, command, message);
    t.deepEqual(JSON.parse(proposal!.arguments), { command });
  }
  t.is(offlineProposal('列出文件')!.text, '离线规则（未配置模型）：建议运行 `ls -la`');
  t.is(offlineProposal('list the files')!.text, 'Offline rule (no model configured): suggest running `ls -la`');
  for (const message of ['事件溯源是什么？', 'explain the login flow', 'what does a test double do']) t.is(offlineProposal(message), null, message);
});
