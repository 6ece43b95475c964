import test from 'ava';
import type { TrajectoryFile } from './api.ts';
import { filterFiles, recentFiles, shortTitle, timeline } from './list.ts';

const file = (id: string, updated: string, extra: Partial<TrajectoryFile> = {}): TrajectoryFile => ({
  file_id: id,
  id,
  filename: `${id}.jsonl`,
  title: `标题 ${id}`,
  description: '',
  created_at: updated,
  updated_at: updated,
  trajectory_count: 3,
  preview_data: [{ event_type: 'user_query', query: '登录为什么失败' }],
  metadata: { session_id: id, project_name: 'scriptorium' },
  favorite: false,
  active: false,
  size: 10,
  ...extra,
});

test('favourites and search words narrow the list', (t) => {
  const files = [file('a', '2026-01-01T00:00:00Z', { favorite: true }), file('b', '2026-01-02T00:00:00Z', { metadata: { session_id: 'b', project_name: 'other' } })];
  t.deepEqual(filterFiles(files, { favoritesOnly: true, query: '' }).map((item) => item.id), ['a']);
  t.deepEqual(filterFiles(files, { favoritesOnly: false, query: 'OTHER' }).map((item) => item.id), ['b']);
  t.deepEqual(filterFiles(files, { favoritesOnly: false, query: '登录 scriptorium' }).map((item) => item.id), ['a']);
});

test('the three most recent, and titles cut at 200 characters', (t) => {
  const files = ['2026-01-03', '2026-01-01', '2026-01-04', '2026-01-02'].map((day, index) => file(String(index), `${day}T00:00:00Z`));
  t.deepEqual(recentFiles(files).map((item) => item.id), ['2', '0', '3']);
  t.is(Array.from(shortTitle('长'.repeat(250))).length, 200);
  t.is(shortTitle('短'), '短');
});

test('a command is shown with its output, a tool call with its result', (t) => {
  const at = '2026-01-01T00:00:00Z';
  const items = timeline([
    { event_type: 'session_start', timestamp: at },
    { event_type: 'user_query', timestamp: at, query: 'q' },
    { event_type: 'command', timestamp: at, command: 'npm test' },
    { event_type: 'command_output', timestamp: at, content: 'ok', exit_code: 0 },
    { event_type: 'tool_call', timestamp: at, content: 'calc' },
    { event_type: 'error', timestamp: at, content: 'boom' },
  ]);
  t.deepEqual(items.map((item) => item.kind), ['boundary', 'query', 'command', 'tool', 'error']);
  t.like(items[2], { kind: 'command', output: { exit_code: 0 } });
  t.like(items[3], { kind: 'tool', result: null });
});
