/**
 * A 20,000-character report streamed into the canvas of a real research page (the built client on
 * Chromium), the socket played by the bench: frame times (requestAnimationFrame deltas) while it
 * streams into the open canvas, against the same stream with the canvas closed (everything but the
 * editor), measured in the same run. Prints both and their ratios; asserts no timing.
 * Serves frontend/dist: run `npm run build` first.
 * Run: npx tsx tests/bench/canvas.ts
 */
import { pathToFileURL } from 'node:url';
import { signUp, startTestApp } from '../support/app.ts';
import { launchBrowser } from '../support/chromium.ts';
import { sized } from './short.ts';
import { requireBuiltClient } from './builtClient.ts';

const REPORT_CHARS = sized(20_000, 2_000);
const CHUNK_CHARS = 50;
const CHUNK_EVERY_MS = 15;
const HEARTBEAT_MS = 3_000;

/** A report as the agents write it: headings, paragraphs with citations, lists. */
function report(): string {
  const parts: string[] = ['# 固态电池研究报告\n\n'];
  for (let section = 1; parts.join('').length < REPORT_CHARS; section++) {
    parts.push(`## 第 ${section} 节：材料体系与制造工艺\n\n`);
    parts.push('固态电池用固态电解质取代了液态电解液，因此在能量密度和**安全性**上都有明显优势[1]。硫化物路线离子电导率高，但对水分敏感，量产需要干燥环境[2]。\n\n');
    parts.push('- 氧化物路线稳定性较好，但界面阻抗偏高\n- 聚合物路线加工容易，室温电导率偏低\n- 复合电解质兼顾两者，是近期的主流方向\n\n');
  }
  return parts.join('').slice(0, REPORT_CHARS);
}

interface FrameStats {
  frames: number;
  p50: number;
  p95: number;
  max: number;
  long: number;
}

const stats = (deltas: number[]): FrameStats => {
  const sorted = [...deltas].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { frames: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? 0, long: sorted.filter((delta) => delta > 50).length };
};

export async function run(): Promise<void> {
  requireBuiltClient();
  const app = await startTestApp();
  const browser = await launchBrowser();
  try {
    const user = await signUp(app.url, `bench${Date.now().toString(36)}`);
    const sessionId = (await user.request('POST', '/backend/conversation/api/v2/research/create_session', { client_id: 'bench', name: '基准' })).body.session_id as string;
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    await context.addInitScript((token) => {
      localStorage.setItem('auth_token', token);
      localStorage.setItem('guidance_enabled', 'false');
    }, user.token!);
    const page = await context.newPage();

    // The bench is the socket: it answers subscribes and streams the report when told.
    let stream: ((version: number, started: () => Promise<void>) => Promise<void>) | null = null;
    await page.routeWebSocket(/\/conversation\/ws\//, (socket) => {
      let position = 1_000;
      const send = (message: unknown) => socket.send(JSON.stringify(message));
      const beat = setInterval(() => send({ type: 'heartbeat', timestamp: new Date().toISOString() }), HEARTBEAT_MS);
      socket.onClose(() => clearInterval(beat));
      socket.onMessage((raw) => {
        const envelope = JSON.parse(String(raw));
        if (envelope.payload?.content_type === 'subscribe') send({ type: 'subscribed', session_id: envelope.session_id, position });
      });
      const item = (fields: Record<string, unknown>) => {
        const now = new Date().toISOString();
        send({ type: 'message', session_id: sessionId, position: ++position, content: { agent: 'deep_cognition', message_id: 'bench-reply', timestamp: now, updated_at: now, artifact_id: 'dccanvas', ...fields } });
      };
      stream = async (version, started) => {
        item({ content_type: 'writing_start', version, title: '固态电池研究报告', message: '正在编辑报告...' });
        await started();
        const text = report();
        for (let at = 0; at < text.length; at += CHUNK_CHARS) {
          item({ content_type: 'writing_content', content: text.slice(at, at + CHUNK_CHARS) });
          await new Promise((resolve) => setTimeout(resolve, CHUNK_EVERY_MS));
        }
      };
    });

    await page.goto(`${app.url}/research?conversation_id=${sessionId}`);
    await page.getByText('已连接').waitFor({ timeout: 15_000 });
    await page.waitForFunction(() => document.querySelectorAll('.session-list .session-item.restoring').length === 0);

    // As source text: the bench runs through tsx, whose helpers do not exist in the page.
    const record = () =>
      page.evaluate(`(() => {
        const deltas = [];
        window.benchFrames = deltas;
        let last = performance.now();
        const tick = (now) => {
          deltas.push(now - last);
          last = now;
          if (window.benchFrames === deltas) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      })()`);
    const collect = async () => ((await page.evaluate('(() => { const frames = window.benchFrames; window.benchFrames = null; return frames; })()')) as number[]).slice(1);

    const canvasText = () => page.evaluate(() => document.querySelector('.canvas-doc .ProseMirror')?.textContent?.length ?? 0);
    const measure = async (version: number, canvasOpen: boolean) => {
      await record();
      const started = performance.now();
      await stream!(version, async () => {
        await page.locator('.canvas-panel').waitFor();
        if (!canvasOpen) await page.locator('.canvas-panel .panel-header').getByRole('button', { name: '关闭' }).click();
      });
      if (canvasOpen) await page.waitForFunction((chars) => (document.querySelector('.canvas-doc .ProseMirror')?.textContent?.length ?? 0) > chars * 0.8, REPORT_CHARS);
      return { frames: stats(await collect()), ms: performance.now() - started };
    };
    const baseline = await measure(1, false);
    const streamed = await measure(2, true);
    const shownChars = await canvasText();
    const idle = baseline.frames;
    const streamMs = streamed.ms;

    const row = (name: string, frame: FrameStats) => `${name.padEnd(10)} ${String(frame.frames).padStart(6)} frames  p50 ${frame.p50.toFixed(1)} ms  p95 ${frame.p95.toFixed(1)} ms  max ${frame.max.toFixed(1)} ms  >50 ms: ${frame.long}`;
    console.log(`streamed ${REPORT_CHARS} characters in ${Math.ceil(REPORT_CHARS / CHUNK_CHARS)} chunks over ${(streamMs / 1000).toFixed(1)} s; the canvas shows ${shownChars} characters of text`);
    console.log(row('no canvas', idle));
    console.log(row('canvas', streamed.frames));
    console.log(`ratio canvas/no canvas: p50 ${(streamed.frames.p50 / idle.p50).toFixed(2)}×  p95 ${(streamed.frames.p95 / idle.p95).toFixed(2)}×  max ${(streamed.frames.max / idle.max).toFixed(2)}×  frames ${(streamed.frames.frames / idle.frames).toFixed(2)}×`);
    await context.close();
  } finally {
    await browser.close();
    await app.stop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
