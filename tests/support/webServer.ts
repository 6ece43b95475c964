/**
 * A small local website for the page fetcher's tests, listening on 127.0.0.1. Tests reach it as
 * `http://localhost:<port>` (the name they allow through the SSRF guard); `loopbackUrl` is the same
 * server by IP literal, which the guard must still refuse.
 *
 * Pages:
 * - `/article`: a Chinese article with a byline and boilerplate around it
 * - `/fragment`: HTML without html, head or body tags
 * - `/gbk`: an HTML page in GBK, named only by the Content-Type header
 * - `/notes.txt`, `/notes.md`: plain text and Markdown
 * - `/untyped`: HTML without a Content-Type; `/blob`: binary without one
 * - `/huge`: 3 MB sent in chunks without Content-Length; `/huge-declared`: Content-Length 3 MB
 * - `/slow`: headers, one paragraph, then nothing until the client gives up
 * - `/paper.pdf`: an `application/pdf` response
 * - `/missing`: 404
 * - `/redirect/<n>`: a chain of n redirects (relative Locations) ending at /article
 * - `/loop`: redirects to itself forever
 * - `/to-loopback`: redirects to `http://127.0.0.1:<port>/article`
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebServer {
  /** `http://localhost:<port>` */
  url: string;
  /** `http://127.0.0.1:<port>` */
  loopbackUrl: string;
  port: number;
  /** Every request, in arrival order. */
  requests: Array<{ path: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

export const ARTICLE_TITLE = '固态电池的产业化进展';
export const ARTICLE_AUTHOR = '张三';
export const ARTICLE_SENTENCE = '固态电池用固态电解质取代了传统锂离子电池中的液态电解液';

const paragraphs = [
  `${ARTICLE_SENTENCE}，因此在能量密度和安全性上都有明显优势。多家车企计划在二〇二七年前后实现小批量装车。`,
  '目前制约固态电池量产的主要因素是成本和界面稳定性。硫化物电解质对空气中的水分敏感，生产需要干燥环境，设备投资较高。',
  '氧化物路线的稳定性较好，但离子电导率偏低，需要与少量液态电解质混合，形成所谓的半固态电池，这也是近期最可能先落地的方案。',
  '业内普遍认为，全固态电池的大规模应用仍需五到十年，其间半固态电池会作为过渡产品占据一定的市场份额。',
];

const articleHtml = `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>${ARTICLE_TITLE} - 科技日报</title>
<meta name="author" content="${ARTICLE_AUTHOR}"></head>
<body>
<nav><a href="/">首页</a> <a href="/tech">科技</a> <a href="/auto">汽车</a></nav>
<article>
<h1>${ARTICLE_TITLE}</h1>
<p class="byline">作者：${ARTICLE_AUTHOR}</p>
${paragraphs.map((text) => `<p>${text}</p>`).join('\n')}
</article>
<footer>版权所有 © 科技日报 <script>track()</script></footer>
</body></html>`;

// "<title>中文</title><p>中文网页</p>" in GBK, which TextEncoder cannot produce.
const gbkHtml = Buffer.concat([
  Buffer.from('<html><head><title>'),
  Buffer.from([0xd6, 0xd0, 0xce, 0xc4]),
  Buffer.from('</title></head><body><p>'),
  Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 0xcd, 0xf8, 0xd2, 0xb3]),
  Buffer.from('</p></body></html>'),
]);

export const HUGE_BYTES = 3 * 1024 * 1024;

export async function startWebServer(): Promise<WebServer> {
  const requests: WebServer['requests'] = [];
  let port = 0;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({ path, headers: req.headers });
    const send = (status: number, type: string | null, body: string | Buffer, extra: Record<string, string> = {}) => {
      res.writeHead(status, { ...(type && { 'content-type': type }), ...extra });
      res.end(body);
    };
    const redirect = (location: string) => send(302, 'text/plain', `redirect to ${location}`, { location });

    const chain = /^\/redirect\/(\d+)$/.exec(path);
    if (chain) {
      const left = Number(chain[1]);
      return redirect(left <= 1 ? '/article' : `/redirect/${left - 1}`);
    }
    switch (path) {
      case '/article':
        return send(200, 'text/html; charset=utf-8', articleHtml);
      case '/fragment':
        return send(200, 'text/html; charset=utf-8', `<title>片段</title><p>${paragraphs[2]}</p>`);
      case '/gbk':
        return send(200, 'text/html; charset=gbk', gbkHtml);
      case '/notes.txt':
        return send(200, 'text/plain; charset=utf-8', '会议纪要\r\n\r\n\r\n\r\n第一项：预算。\r\n第二项：进度。');
      case '/notes.md':
        return send(200, 'text/markdown; charset=utf-8', '# 研究笔记\n\n半固态电池是过渡方案。\n');
      case '/untyped':
        return send(200, null, `<!doctype html><html><head><title>无类型</title></head><body><p>${paragraphs[1]}</p></body></html>`);
      case '/blob':
        return send(200, null, Buffer.from([0x00, 0x01, 0x02, 0xff]));
      case '/huge': {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let sent = 0;
        const pump = () => {
          while (sent < HUGE_BYTES && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        return pump();
      }
      case '/huge-declared':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(HUGE_BYTES) });
        return res.write('<html><body>');
      case '/slow':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.write(`<html><body><p>${paragraphs[0]}</p>`);
      case '/paper.pdf':
        return send(200, 'application/pdf', Buffer.from('%PDF-1.4\n%âãÏÓ\n'));
      case '/missing':
        return send(404, 'text/html; charset=utf-8', '<h1>Not Found</h1>');
      case '/loop':
        return redirect('/loop');
      case '/to-loopback':
        return redirect(`http://127.0.0.1:${port}/article`);
      default:
        return send(404, 'text/plain', 'not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${port}`,
    loopbackUrl: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
