/**
 * The built client as a browser receives it: precompressed by Accept-Encoding, hashed assets cached
 * for good, index.html revalidated, and a first load of /research within its byte budget. Needs
 * `npm run build` (npm test runs it first).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../support/app.ts';

/**
 * Brotli bytes of JS that /research loads before its first lazy chunk (the golden-layout workspace):
 * issue 16's target (docs/performance.md says what keeps it there).
 */
const FIRST_LOAD_BUDGET = 200_000;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}
const manifest: Record<string, ManifestChunk> = JSON.parse(readFileSync(fileURLToPath(new URL('../../frontend/dist/.vite/manifest.json', import.meta.url)), 'utf8'));

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Undici's fetch decodes bodies on its own; this reads the bytes as they travel. */
function get(base: string, path: string, encoding?: string, cookie?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers = { ...(encoding !== undefined && { 'accept-encoding': encoding }), ...(cookie !== undefined && { cookie }) };
    const req = request(new URL(path, base), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The chunks a manifest key pulls in statically, itself included: what the browser fetches before any `import()`. */
function staticClosure(key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const imported of manifest[key]!.imports ?? []) staticClosure(imported, into);
  return into;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
const researchKey = Object.keys(manifest).find((key) => manifest[key]!.src === 'src/research/ResearchPage.tsx')!;
const asset = (key: string) => `/${manifest[key]!.file}`;

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

test('a hashed asset is served brotli or gzip by Accept-Encoding, cached as immutable for a year', async (t) => {
  const path = asset(entryKey);
  const plain = await get(app.url, path);
  t.is(plain.status, 200);
  t.is(plain.headers['content-encoding'], undefined);
  const br = await get(app.url, path, 'gzip, deflate, br');
  t.is(br.headers['content-encoding'], 'br');
  t.deepEqual(brotliDecompressSync(br.body), plain.body);
  const gz = await get(app.url, path, 'gzip');
  t.is(gz.headers['content-encoding'], 'gzip');
  t.deepEqual(gunzipSync(gz.body), plain.body);
  for (const response of [plain, br, gz]) {
    t.regex(String(response.headers['content-type']), /javascript/);
    t.regex(String(response.headers['cache-control']), /max-age=31536000/);
    t.regex(String(response.headers['cache-control']), /immutable/);
    t.regex(String(response.headers.vary), /Accept-Encoding/i);
  }
  t.true(br.body.length < gz.body.length && gz.body.length < plain.body.length / 2);
});

test('index.html, also for a client-side route, is compressed and revalidated on every load', async (t) => {
  for (const path of ['/', '/research', '/index.html']) {
    const response = await get(app.url, path, 'br');
    t.is(response.status, 200, path);
    t.is(response.headers['content-encoding'], 'br', path);
    t.regex(String(response.headers['content-type']), /text\/html/, path);
    t.is(response.headers['cache-control'], 'no-cache', path);
    t.regex(brotliDecompressSync(response.body).toString(), /<div id="root">/, path);
  }
});

test('/research and / are sent the index.html that preloads the research screen; other routes are not', async (t) => {
  const page = async (path: string) => brotliDecompressSync((await get(app.url, path, 'br')).body).toString();
  const preload = `<link rel="modulepreload" fetchpriority="low" crossorigin href="${asset(researchKey)}">`;
  for (const path of ['/research', '/']) t.true((await page(path)).includes(preload), path);
  for (const path of ['/note', '/index.html', '/share/abc']) t.false((await page(path)).includes(preload), path);
});

test('before its scripts run, the landing page says what it is for, in the language the reader chose', async (t) => {
  const page = async (cookie?: string) => {
    const response = await get(app.url, '/research', 'br', cookie);
    t.regex(String(response.headers.vary), /Cookie/);
    return brotliDecompressSync(response.body).toString();
  };
  const chinese = await page();
  t.regex(chinese, /<html lang="zh-CN">/);
  t.true(chinese.includes('<p>提出一个问题，研究智能体会先澄清需求'), 'the Chinese placeholder');
  const english = await page('app_language=en');
  t.regex(english, /<html lang="en">/);
  t.true(english.includes('<p>Ask a question: the research agent clarifies what you need'), 'the English placeholder');
  t.true((await page('app_language=fr')).includes('<p>提出一个问题'), 'anything else falls back to Chinese');
  t.false(brotliDecompressSync((await get(app.url, '/note', 'br', 'app_language=en')).body).toString().includes('<p>Ask a question'), 'other routes keep the plain spinner');
});

test('before its scripts run, /cli shows its heading and steps, in the language the reader chose', async (t) => {
  const page = async (cookie?: string) => {
    const response = await get(app.url, '/cli', 'br', cookie);
    t.regex(String(response.headers.vary), /Cookie/);
    return brotliDecompressSync(response.body).toString();
  };
  const chinese = await page();
  t.regex(chinese, /<html lang="zh-CN">/);
  t.true(chinese.includes('<h1>Scriptorium 命令行助手</h1>'), 'the Chinese heading');
  t.true(chinese.includes('<li>登录：在浏览器中确认授权'), 'the Chinese steps');
  const english = await page('app_language=en');
  t.regex(english, /<html lang="en">/);
  t.true(english.includes('<li>Sign in: approve in the browser'), 'the English steps');
  t.false(english.includes('<p>Ask a question'), 'not the research placeholder');
  t.false(brotliDecompressSync((await get(app.url, '/cli/docs', 'br')).body).toString().includes('<li>登录'), '/cli/docs keeps the plain spinner');
});

test('the first load of /research stays within its budget and leaves golden-layout and ProseMirror to lazy chunks', async (t) => {
  const html = brotliDecompressSync((await get(app.url, '/research', 'br')).body).toString();
  const first = staticClosure(researchKey, staticClosure(entryKey));
  for (const key of staticClosure(entryKey)) if (manifest[key]!.file.endsWith('.js')) t.true(html.includes(asset(key)), `index.html loads or preloads ${asset(key)}`);
  let bytes = 0;
  for (const key of first) {
    if (!manifest[key]!.file.endsWith('.js')) continue;
    const response = await get(app.url, asset(key), 'br');
    t.is(response.headers['content-encoding'], 'br', asset(key));
    const source = brotliDecompressSync(response.body).toString();
    t.false(/golden-layout|lm_goldenlayout|prosemirror|ProseMirror/.test(source), `${asset(key)} holds golden-layout or ProseMirror`);
    bytes += response.body.length;
  }
  t.log(`first load of /research: ${first.size} chunks, ${bytes.toLocaleString('en-US')} bytes of brotli JS`);
  t.true(bytes <= FIRST_LOAD_BUDGET, `${bytes} bytes > ${FIRST_LOAD_BUDGET}`);
});
