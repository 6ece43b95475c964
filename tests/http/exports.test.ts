import test from 'ava';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { client, signUp, checkedFetch, startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => {
  await app?.stop();
});

const REPORT = `# 新能源汽车市场调研报告

这是一段**加粗**、*斜体*和 \`行内代码\` 混排的段落，并附有[数据来源](https://example.com/source)。

## 一、市场概况

- 销量同比增长 35%
- 渗透率突破 40%
  - 一线城市领先
- [x] 已核对数据

1. 第一步：收集数据
2. 第二步：分析趋势

> 引用：事件溯源把每一次变更记录为不可变的事件。

\`\`\`ts
const report = await writer.generate({ topic: '新能源' });
\`\`\`

| 品牌 | 销量（万辆） |
|:---|---:|
| 比亚迪 | 302.4 |
| 特斯拉 | 180.8 |

---

结论：市场仍在快速增长。
`;

async function exportPdf(token: string | undefined, body: unknown) {
  const response = await checkedFetch(`${app.url}/backend/api/markdown-to-pdf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

async function pdfContents(bytes: Uint8Array) {
  const pdf = await getDocument({ data: bytes, isEvalSupported: false, verbosity: 0 }).promise;
  let text = '';
  const links: string[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    text += content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
    for (const annotation of await page.getAnnotations()) if (annotation.url) links.push(annotation.url);
  }
  const info = (await pdf.getMetadata()).info as { Title?: string };
  const pages = pdf.numPages;
  await pdf.destroy();
  return { text, links, title: info.Title, pages };
}

test.serial('Markdown becomes a PDF attachment whose text is the Chinese that was sent', async (t) => {
  const user = await signUp(app.url, 'exporter');
  const response = await exportPdf(user.token, { markdown_content: REPORT, filename: '调研报告.md' });
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'application/pdf');
  t.is(response.headers.get('content-disposition'), `attachment; filename="????.pdf"; filename*=UTF-8''${encodeURIComponent('调研报告')}.pdf`);
  t.is(Buffer.from(response.bytes.subarray(0, 5)).toString('latin1'), '%PDF-');

  const { text, links, title } = await pdfContents(response.bytes);
  const flat = text.replace(/\s+/g, '');
  for (const expected of ['新能源汽车市场调研报告', '这是一段加粗、斜体和行内代码混排的段落', '一、市场概况', '销量同比增长35%', '一线城市领先', '已核对数据', '1.第一步：收集数据', '引用：事件溯源把每一次变更记录为不可变的事件。', "constreport=awaitwriter.generate({topic:'新能源'});", '品牌', '比亚迪', '302.4', '结论：市场仍在快速增长。']) {
    t.true(flat.includes(expected), `missing: ${expected}`);
  }
  t.deepEqual(links, ['https://example.com/source']);
  t.is(title, '调研报告');
});

test.serial('a file name with a lone surrogate (JSON can carry one) downloads under a readable name, not a server fault', async (t) => {
  const user = await signUp(app.url, 'surrogates');
  const response = await exportPdf(user.token, { markdown_content: '# 标题', filename: '报告\udfff\ud800' });
  t.is(response.status, 200);
  t.is(response.headers.get('content-disposition'), `attachment; filename="????.pdf"; filename*=UTF-8''${encodeURIComponent('报告\ufffd\ufffd')}.pdf`);
  // 199 characters and an emoji: cut at 200 characters, the pair is kept whole or left out, never halved.
  const long = await exportPdf(user.token, { markdown_content: '# 标题', filename: `${'a'.repeat(199)}😀😀` });
  t.is(long.status, 200);
  t.true(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(long.headers.get('content-disposition') ?? '')![1]!).startsWith(`${'a'.repeat(199)}😀`));
});

test.serial('a long report runs over several numbered pages', async (t) => {
  const user = await signUp(app.url, 'longexporter');
  const long = Array.from({ length: 120 }, (_, index) => `第 ${index + 1} 段：投影从事件日志构建读模型，读模型可以随时重建。`).join('\n\n');
  const response = await exportPdf(user.token, { markdown_content: long });
  t.is(response.status, 200);
  t.regex(response.headers.get('content-disposition') ?? '', /filename="report\.pdf"/);
  const { text, pages } = await pdfContents(response.bytes);
  t.true(pages > 1);
  t.true(text.includes(`1 / ${pages}`) && text.includes(`${pages} / ${pages}`), 'page numbers');
  t.true(text.replace(/\s+/g, '').includes('第120段：投影从事件日志构建读模型'));
});

test.serial('sign-in, content and size are checked', async (t) => {
  t.is((await exportPdf(undefined, { markdown_content: '# 标题' })).status, 401);
  const user = await signUp(app.url, 'exportchecks');
  const blank = await user.request('POST', '/backend/api/markdown-to-pdf', { markdown_content: '  \n ' });
  t.is(blank.status, 422);
  t.deepEqual(blank.body.detail, [{ loc: ['body', 'markdown_content'], msg: '内容不能为空', type: 'custom', code: 'exports.markdown_empty' }]);
  const missing = await user.request('POST', '/backend/api/markdown-to-pdf', { filename: 'a' });
  t.is(missing.status, 422);
  const huge = await user.request('POST', '/backend/api/markdown-to-pdf', { markdown_content: '中'.repeat(400_000) });
  t.is(huge.status, 413);
});

test.serial('without a CJK font the export says so instead of printing empty boxes', async (t) => {
  const user = await signUp(app.url, 'nofont');
  const saved = process.env.PDF_FONT_PATH;
  process.env.PDF_FONT_PATH = '/nonexistent/font.ttf';
  try {
    const response = await client(app.url, user.token).request('POST', '/backend/api/markdown-to-pdf', { markdown_content: '# 标题' });
    t.is(response.status, 503);
    t.regex(response.body.detail, /没有中文字体.*fonts-noto-cjk.*PDF_FONT_PATH/);
  } finally {
    if (saved === undefined) delete process.env.PDF_FONT_PATH;
    else process.env.PDF_FONT_PATH = saved;
  }
});

test.serial('anyone with a share link can take the shared report away as a PDF, until the link is revoked', async (t) => {
  const user = await signUp(app.url, 'sharedexporter');
  const sessionId = (await user.request('POST', '/backend/conversation/sessions', { client_id: 'exports' })).body.session_id as string;
  const sent = await user.request('POST', `/backend/conversation/sessions/${sessionId}/dispatch`, {
    agent: 'direct_writing_agent',
    action: 'send',
    params: { text: '写一篇关于事件溯源与读模型重建的简短说明' },
  });
  t.is(sent.status, 200);
  for (;;) {
    if (!(await user.request('GET', `/backend/conversation/research/${sessionId}/status`)).body.processing) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const canvas = (await user.request('GET', `/backend/conversation/research/${sessionId}/canvas`)).body;
  const latest = canvas.versions.at(-1);
  t.truthy(latest, 'the writing agent saved a version');
  const share = (await user.request('POST', '/backend/conversation/sessions/share', { session_id: sessionId })).body;

  const response = await checkedFetch(`${app.url}/backend/conversation/share/${share.share_id}/pdf?version=${latest.version}`);
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'application/pdf');
  const { text } = await pdfContents(new Uint8Array(await response.arrayBuffer()));
  t.true(text.replace(/\s+/g, '').includes(latest.title.replace(/\s+/g, '')));

  t.is((await checkedFetch(`${app.url}/backend/conversation/share/${share.share_id}/pdf?version=99`)).status, 404);
  t.is((await checkedFetch(`${app.url}/backend/conversation/share/${share.share_id}/pdf?version=abc`)).status, 422);
  await user.request('DELETE', `/backend/conversation/share/${share.share_id}`);
  t.is((await checkedFetch(`${app.url}/backend/conversation/share/${share.share_id}/pdf`)).status, 404);
});
