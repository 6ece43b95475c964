import test from 'ava';
import { z } from 'zod';
import { runPlatformTools, ToolError, ToolRegistry, type PlatformTool } from './registry.ts';

const echo: PlatformTool<z.ZodObject<{ word: z.ZodString; times: z.ZodDefault<z.ZodNumber> }>> = {
  name: 'echo',
  description: '重复一个词',
  parameters: z.object({ word: z.string().min(1), times: z.number().int().min(1).default(1) }),
  async run({ word, times }, { userId }) {
    return { data: { text: word.repeat(times), userId }, count: times, sources: [{ title: word, url: `https://example.com/${word}` }] };
  },
};

const broken: PlatformTool<z.ZodObject<Record<string, never>>> = {
  name: 'broken',
  description: '总是失败',
  parameters: z.object({}),
  async run() {
    throw new Error('磁盘坏了');
  },
};

const waiting: PlatformTool<z.ZodObject<Record<string, never>>> = {
  name: 'waiting',
  description: '等到被取消',
  parameters: z.object({}),
  run: (_args, { signal }) =>
    new Promise((_resolve, reject) => {
      signal?.addEventListener('abort', () => reject(new Error('interrupted')), { once: true });
    }),
};

const registry = () => new ToolRegistry().register(echo).register(broken).register(waiting);
const context = { userId: 'u1' };

test('list describes every tool with a JSON Schema of its input', (t) => {
  const [first] = registry().list();
  t.is(first?.name, 'echo');
  t.is(first?.description, '重复一个词');
  t.like(first?.parameters, { type: 'object', required: ['word'], properties: { word: { type: 'string', minLength: 1 }, times: { type: 'integer', default: 1 } } });
});

test('a name cannot be registered twice', (t) => {
  t.throws(() => registry().register(echo), { message: /registered twice/ });
});

test('run validates the arguments, fills defaults and passes the context', async (t) => {
  const result = await registry().run('echo', { word: '好' }, context);
  t.deepEqual(result.data, { text: '好', userId: 'u1' });
  const error = await t.throwsAsync(registry().run('echo', { word: '', times: 1.5 }, context), { instanceOf: ToolError });
  t.is(error?.reason, 'invalid_args');
  t.true(error?.message.includes('word'));
  t.true(error?.message.includes('times'));
  t.is((await t.throwsAsync(registry().run('echo', 'not an object', context), { instanceOf: ToolError }))?.reason, 'invalid_args');
});

test('an unknown tool and a failing tool are ToolErrors', async (t) => {
  const unknown = await t.throwsAsync(registry().run('rm', {}, context), { instanceOf: ToolError });
  t.is(unknown?.reason, 'unknown_tool');
  t.true(unknown?.message.includes('echo'));
  const failed = await t.throwsAsync(registry().run('broken', {}, context), { instanceOf: ToolError });
  t.is(failed?.reason, 'failed');
  t.is(failed?.message, '磁盘坏了');
});

test('a cancelled call throws the signal reason', async (t) => {
  const controller = new AbortController();
  const reason = new Error('job cancelled');
  const running = registry().run('waiting', {}, { userId: 'u1', signal: controller.signal });
  controller.abort(reason);
  t.is(await running.catch((error: unknown) => error), reason);
  t.is(await registry().run('echo', { word: 'x' }, { userId: 'u1', signal: controller.signal }).catch((error: unknown) => error), reason);
});

test('runPlatformTools reports the calls as the platform tools item', async (t) => {
  const item = await runPlatformTools(
    registry(),
    [
      { name: 'echo', args: { word: 'a', times: 2 } },
      { name: 'broken', args: {} },
      { name: 'echo', args: { word: 'a' } },
      { name: 'echo', args: { word: 'b' } },
      { name: 'echo', args: { word: '' } },
      { name: 'missing', args: {} },
    ],
    context,
  );
  t.deepEqual(item.tools, ['echo', 'broken', 'missing']);
  t.is(item.tool_count, 3);
  t.is(item.total_results, 4);
  t.deepEqual(item.sources, [
    { title: 'a', url: 'https://example.com/a', tool: 'echo' },
    { title: 'b', url: 'https://example.com/b', tool: 'echo' },
  ]);
  t.deepEqual(item.sources_status, { echo: 'error', broken: 'error', missing: 'error' });
  t.is(item.results_by_tool.echo?.length, 4);
  t.deepEqual(item.results_by_tool.echo?.[0], { args: { word: 'a', times: 2 }, ok: true, data: { text: 'aa', userId: 'u1' }, count: 2 });
  t.like(item.results_by_tool.echo?.[3], { ok: false });
  t.deepEqual(item.results_by_tool.broken, [{ args: {}, ok: false, error: '磁盘坏了' }]);
  t.like(item.results_by_tool.missing?.[0], { ok: false });
});

test('runPlatformTools marks a tool ok when all its calls succeed, and handles no calls', async (t) => {
  const item = await runPlatformTools(registry(), [{ name: 'echo', args: { word: 'z' } }], context);
  t.deepEqual(item.sources_status, { echo: 'ok' });
  t.deepEqual(await runPlatformTools(registry(), [], context), { tool_count: 0, tools: [], total_results: 0, results_by_tool: {}, sources: [], sources_status: {} });
});

test('runPlatformTools throws when the run is cancelled instead of reporting errors', async (t) => {
  const controller = new AbortController();
  const reason = new Error('job cancelled');
  const running = runPlatformTools(registry(), [{ name: 'echo', args: { word: 'a' } }, { name: 'waiting', args: {} }], { userId: 'u1', signal: controller.signal });
  controller.abort(reason);
  t.is(await running.catch((error: unknown) => error), reason);
});
