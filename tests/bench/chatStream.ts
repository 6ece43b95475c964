/**
 * A chat reply streamed into a real research page (the built client on Chromium), the socket played by
 * the bench: 400 chunks 10 ms apart, once into an empty conversation (the baseline) and once after 30
 * earlier replies of Markdown with citations, each in a fresh page, in the same run. Prints the
 * page's script and task time while the reply streams (Chromium's own counters, over the DevTools
 * protocol), how long the stream took to show, and the React components rendered per chunk; the ratio
 * long/empty says what a long conversation adds to every chunk. Asserts no timing.
 * Serves frontend/dist: run `npm run build` first.
 * Run: npx tsx tests/bench/chatStream.ts
 */
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { signUp, startTestApp, type TestApp } from '../support/app.ts';
import { launchBrowser } from '../support/chromium.ts';
import { sized } from './short.ts';
import { requireBuiltClient } from './builtClient.ts';

const CHUNKS = sized(400, 40);
const CHUNK_EVERY_MS = 10;
const HISTORY = sized(30, 3);
const CHUNK = '固态电池用固态电解质取代了液态电解液，';
/** An earlier reply: headings, emphasis, citations of its three sources, a list. */
const EARLIER_REPLY = Array.from(
  { length: 12 },
  (_, index) => `## 第 ${index + 1} 节\n\n固态电池用**固态电解质**取代了液态电解液[1]，硫化物路线离子电导率高[2]，氧化物路线稳定[3]。\n\n- 要点一\n- 要点二\n`,
).join('\n');

interface StreamCost {
  scriptMs: number;
  taskMs: number;
  shownMs: number;
  renders: number;
}

/**
 * Counts the function components React rendered (fibers with work performed) in every commit while
 * `window.countingRenders` is set; installed before the page's scripts as React DevTools would be.
 * A subtree React skipped keeps the child of the fiber's previous version (it was not copied), and
 * its fibers keep the flags of their last render, so the walk does not go into it.
 */
const RENDER_COUNTER = `(() => {
  const counted = { renders: 0 };
  window.renderCount = counted;
  const walk = (fiber) => {
    for (let node = fiber; node; node = node.sibling) {
      if ((node.flags & 1) !== 0 && typeof node.type === 'function') counted.renders++;
      if (node.child && (node.alternate === null || node.child !== node.alternate.child)) walk(node.child);
    }
  };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, renderers: new Map(), inject() { return 1; }, checkDCE() {}, onScheduleFiberRoot() {},
    onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
    onCommitFiberRoot(id, root) { if (window.countingRenders) walk(root.current); },
  };
})()`;

async function streamInto(app: TestApp, browser: Browser, history: number): Promise<StreamCost> {
  const user = await signUp(app.url, `chat${history}${Date.now().toString(36)}`);
  const sessionId = (await user.request('POST', '/backend/conversation/api/v2/research/create_session', { client_id: 'bench', name: '基准' })).body.session_id as string;
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  try {
    await context.addInitScript((token) => {
      localStorage.setItem('auth_token', token);
      localStorage.setItem('guidance_enabled', 'false');
    }, user.token!);
    await context.addInitScript(RENDER_COUNTER);
    const page = await context.newPage();

    // The bench is the socket: the earlier replies arrive with the subscription, the new one when told.
    let position = 1_000;
    let stream: (() => Promise<void>) | null = null;
    await page.routeWebSocket(/\/conversation\/ws\//, (socket) => {
      const send = (message: unknown) => socket.send(JSON.stringify(message));
      const item = (messageId: string, fields: Record<string, unknown>) => {
        const now = new Date().toISOString();
        send({ type: 'message', session_id: sessionId, position: ++position, content: { agent: 'poe_llm', message_id: messageId, timestamp: now, updated_at: now, ...fields } });
      };
      socket.onMessage((raw) => {
        const envelope = JSON.parse(String(raw));
        if (envelope.payload?.content_type !== 'subscribe') return;
        send({ type: 'subscribed', session_id: envelope.session_id, position });
        for (let reply = 0; reply < history; reply++) {
          const results = [1, 2, 3].map((n) => ({ title: `来源 ${n}`, url: `https://example.test/${reply}/${n}`, snippet: '摘要', has_useful_info: true, useful_info_summary: '摘要' }));
          item(`earlier-${reply}`, { content_type: 'web_search_results', results });
          item(`earlier-${reply}`, { content_type: 'chat_chunk', content: EARLIER_REPLY });
          item(`earlier-${reply}`, { content_type: 'message_end', outcome: 'completed' });
        }
      });
      stream = async () => {
        for (let chunk = 0; chunk < CHUNKS; chunk++) {
          item('streamed', { content_type: 'chat_chunk', content: CHUNK });
          await new Promise((resolve) => setTimeout(resolve, CHUNK_EVERY_MS));
        }
      };
    });

    await page.goto(`${app.url}/research?conversation_id=${sessionId}`);
    await page.getByText('已连接').waitFor({ timeout: 15_000 });
    await page.waitForFunction((replies) => document.querySelectorAll('.message-assistant').length >= replies, history, { timeout: 30_000 });
    // Lets the page settle (fonts, the workspace's first layout) before anything is counted.
    await page.waitForTimeout(1_000);

    const devtools = await context.newCDPSession(page);
    await devtools.send('Performance.enable');
    const counters = async () => {
      const { metrics } = (await devtools.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
      return Object.fromEntries(metrics.map((metric) => [metric.name, metric.value])) as Record<string, number>;
    };
    await page.evaluate('window.countingRenders = true');
    const before = await counters();
    const started = performance.now();
    await stream!();
    const expected = CHUNK.length * CHUNKS;
    await page.waitForFunction(
      (chars) => [...document.querySelectorAll('.message-assistant')].some((element) => (element.textContent ?? '').length >= chars),
      expected,
      { timeout: 60_000 },
    );
    const shownMs = performance.now() - started;
    const after = await counters();
    const { renders } = (await page.evaluate('window.renderCount')) as { renders: number };
    return { scriptMs: (after.ScriptDuration! - before.ScriptDuration!) * 1000, taskMs: (after.TaskDuration! - before.TaskDuration!) * 1000, shownMs, renders };
  } finally {
    await context.close();
  }
}

export async function run(): Promise<void> {
  requireBuiltClient();
  const app = await startTestApp();
  const browser = await launchBrowser();
  try {
    const empty = await streamInto(app, browser, 0);
    const long = await streamInto(app, browser, HISTORY);
    const row = (name: string, cost: StreamCost) =>
      `${name.padEnd(22)} script ${Math.round(cost.scriptMs).toLocaleString('en-US').padStart(6)} ms  tasks ${Math.round(cost.taskMs).toLocaleString('en-US').padStart(6)} ms  shown after ${(cost.shownMs / 1000).toFixed(1)} s  ${(cost.renders / CHUNKS).toFixed(1)} components rendered per chunk`;
    console.log(`chat stream: ${CHUNKS} chunks ${CHUNK_EVERY_MS} ms apart (${((CHUNKS * CHUNK_EVERY_MS) / 1000).toFixed(1)} s of streaming) into a research page`);
    console.log(`  ${row('empty conversation', empty)}`);
    console.log(`  ${row(`after ${HISTORY} replies`, long)}`);
    console.log(`  ratio long/empty: script ${(long.scriptMs / empty.scriptMs).toFixed(2)}×, tasks ${(long.taskMs / empty.taskMs).toFixed(2)}×, shown after ${(long.shownMs / empty.shownMs).toFixed(2)}×`);
  } finally {
    await browser.close();
    await app.stop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
