import test from 'ava';
import type { EngineerNodeInput } from '@scriptorium/domain/protocol/engineer';
import { EngineerRecorder, type Api } from './engineer.ts';

test('node ids sort in the order the nodes were made, past nine of them: nodes of one moment order by id', async (t) => {
  const sent: EngineerNodeInput[] = [];
  const api: Api = async (path, init) => {
    if (path.endsWith('/nodes')) sent.push(...(JSON.parse(String(init?.body)) as { nodes: EngineerNodeInput[] }).nodes);
    return new Response('{}', { status: 200 });
  };
  const recorder = new EngineerRecorder(api, 'session-1', 'client-1', { title: 'demo', task_description: '' }, () => undefined);
  const timestamp = '2026-11-27T10:00:00.000Z';
  for (let round = 0; round < 6; round++) {
    await recorder.record({ event_type: 'user_query', timestamp, query: `问题 ${round}` });
    await recorder.record({ event_type: 'assistant_response', timestamp, content: '可以列出文件。' });
  }
  const ids = sent.map((node) => node.id);
  t.is(ids.length, 12);
  t.deepEqual([...ids].sort(), ids);
});
