import test from 'ava';
import type { EngineerNode } from '@scriptorium/domain/protocol/engineer';
import { engineerSocketUrl, nodeSummary, openProposals, proposalAnswers, proposedCommand, visibleRows } from './tree.ts';

const node = (id: string, second: number, parent: string | null = null): EngineerNode => ({ id, parent_id: parent, status: 'completed', timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(), node_type: 'thought', payload: { text: id } });
const map = (...nodes: EngineerNode[]) => new Map(nodes.map((one) => [one.id, one]));

test('rows go depth first, oldest first, and skip what is collapsed', (t) => {
  const nodes = map(node('b', 5), node('a', 1), node('a2', 3, 'a'), node('a1', 2, 'a'), node('a1x', 4, 'a1'), node('orphan', 6, 'missing'));
  t.deepEqual(visibleRows(nodes, new Set()).map((row) => `${row.depth}${row.node.id}`), ['0a', '1a1', '2a1x', '1a2', '0b', '0orphan']);
  const collapsed = visibleRows(nodes, new Set(['a1']));
  t.deepEqual(collapsed.map((row) => row.node.id), ['a', 'a1', 'a2', 'b', 'orphan']);
  t.like(collapsed[1], { hasChildren: true, expanded: false });
});

test('a chain deeper than the call stack still flattens', (t) => {
  const chain = Array.from({ length: 20_000 }, (_, index) => node(`n${index}`, index, index === 0 ? null : `n${index - 1}`));
  t.is(visibleRows(map(...chain), new Set()).at(-1)!.depth, 19_999);
});

const asRecorded = () => undefined;

test('a command reads as a shell line; a file change by what happened to which path', (t) => {
  t.is(nodeSummary({ ...node('c', 0), node_type: 'command', payload: { command: 'npm test' } }, asRecorded), '$ npm test');
  t.is(nodeSummary({ ...node('f', 0), node_type: 'file_change', payload: { path: 'a.ts', change: 'modify' } }, asRecorded), 'modify a.ts');
});

test('an error reads in the reader’s language when its code is known, as recorded otherwise', (t) => {
  const reword = (code: string, params: Record<string, string | number>) => (code === 'engineer.sandbox_time' ? `stopped after ${params.seconds} s` : undefined);
  const error = (payload: { message: string; code?: string; params?: Record<string, string | number> }) => ({ ...node('e', 0), node_type: 'error' as const, payload });
  t.is(nodeSummary(error({ message: '命令超过时间限制（10 秒），已停止', code: 'engineer.sandbox_time', params: { seconds: 10 } }), reword), 'stopped after 10 s');
  t.is(nodeSummary(error({ message: '自定义错误', code: 'cli.custom' }), reword), '自定义错误');
  t.is(nodeSummary(error({ message: 'plain' }), reword), 'plain');
});

test('a system note with a code reads in the reader’s language; other messages as recorded', (t) => {
  const reword = (code: string) => (code === 'engineer.run_refused_browser' ? 'Refused to run (answered in the browser)' : undefined);
  const message = (payload: { role: 'user' | 'assistant' | 'system'; text: string; code?: string }) => ({ ...node('m', 0), node_type: 'message' as const, payload });
  t.is(nodeSummary(message({ role: 'system', text: '已拒绝运行（浏览器）', code: 'engineer.run_refused_browser' }), reword), 'Refused to run (answered in the browser)');
  t.is(nodeSummary(message({ role: 'system', text: '已拒绝运行（浏览器）', code: 'engineer.run_refused_browser' }), asRecorded), '已拒绝运行（浏览器）');
  t.is(nodeSummary(message({ role: 'assistant', text: '建议运行 `ls`' }), reword), '建议运行 `ls`');
});

test('the socket uses port 8002 from the development ports, the page host otherwise', (t) => {
  t.is(engineerSocketUrl({ protocol: 'http:', hostname: 'localhost', host: 'localhost:5173', port: '5173' }, 's1', 'tok', null), 'ws://localhost:8002/backend/api/ai-engineer/ws/sessions/s1?token=tok');
  t.is(engineerSocketUrl({ protocol: 'https:', hostname: 'x.org', host: 'x.org', port: '' }, 's1', 'tok', 42), 'wss://x.org/backend/api/ai-engineer/ws/sessions/s1?token=tok&last_position=42');
});

test('a proposal is open while it is pending and nothing is recorded under it', (t) => {
  const proposal = (id: string, command: string): EngineerNode => ({ ...node(id, 1), status: 'pending', node_type: 'tool_call', payload: { name: 'run_command', arguments: { command } } });
  const nodes = map(proposal('p1', 'ls -la'), proposal('p2', 'pwd'), { ...node('c1', 2, 'p1'), node_type: 'command', payload: { command: 'ls -la' } }, { ...proposal('p3', 'x'), status: 'completed' });
  t.deepEqual(openProposals(nodes), [{ id: 'p2', command: 'pwd' }]);
});

test("an answered proposal reads its answer from its first child; an approval's command is found by the proposal's id", (t) => {
  const proposal = (id: string): EngineerNode => ({ ...node(id, 1), status: 'pending', node_type: 'tool_call', payload: { name: 'run_command', arguments: { command: `cmd-${id}` } } });
  const nodes = map(proposal('p1'), proposal('p2'), proposal('p3'), { ...node('c1', 2, 'p1'), node_type: 'command', payload: { command: 'cmd-p1' } }, { ...node('m2', 2, 'p2'), node_type: 'message', payload: { role: 'system', text: '已拒绝运行（终端）' } });
  t.deepEqual([...proposalAnswers(nodes)], [['p1', 'approved'], ['p2', 'rejected']]);
  t.is(proposedCommand(nodes, 'p3'), 'cmd-p3');
  t.is(proposedCommand(nodes, 'c1'), null);
});
