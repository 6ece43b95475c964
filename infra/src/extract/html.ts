import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { decodeText, decodeWithLabel } from './decode.ts';
import { ExtractError } from './errors.ts';

const BLOCK = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'DD', 'DIV', 'DL', 'DT', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6',
  'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'TABLE', 'TR', 'UL',
]);
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'HEAD']);
const CELL = new Set(['TD', 'TH']);

export interface NodeLike {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<NodeLike>;
}

/** What Readability makes of a page: its article (null when it finds none), titles, and the text root to read. */
export interface ReadDocument {
  article: ReturnType<Readability<Node>['parse']>;
  pageTitle: string | undefined;
  root: NodeLike | null;
}

/**
 * The readable part of a page (Readability's article, as Firefox Reader View shows it), or the
 * whole body when Readability finds no article or cannot read the page at all.
 */
export function readDocument(source: string): ReadDocument {
  const html = withBody(source);
  const { document } = parseHTML(html);
  const pageTitle = document.title?.trim() || undefined;
  let article: ReadDocument['article'] = null;
  try {
    article = new Readability(document as unknown as Document, { serializer: (node: Node) => node }).parse();
  } catch {
    // Readability assumes a well-formed page; what it cannot read is still read as plain body text.
  }
  // Readability rewrites the document it reads, so the fallback body comes from a fresh parse.
  const root = (article?.content as NodeLike | null | undefined) ?? (parseHTML(html).document.body as unknown as NodeLike | null);
  return { article, pageTitle, root };
}

/** The readable text of an HTML upload, with block boundaries kept as line breaks. */
export function htmlText(bytes: Uint8Array): { text: string; title?: string } {
  const { article, pageTitle, root } = readDocument(decodeHtml(bytes));
  const text = root ? blockText(root) : '';
  const title = article?.title?.trim() || pageTitle;
  return { text, ...(title && { title }) };
}

/**
 * linkedom builds the tree as written and does not infer the head and body that browsers imply,
 * so a page written without them (or a bare fragment) would have no body to read; it gets both.
 */
function withBody(html: string): string {
  if (/<body[\s>]/i.test(html)) return html;
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '';
  const inner = html
    .replace(/<!doctype[^>]*>/i, '')
    .replace(/<title[^>]*>[\s\S]*?<\/title>/i, '')
    .replace(/<\/?(html|head)(\s[^>]*)?>/gi, '');
  return `<!doctype html><html><head><title>${title}</title></head><body>${inner}</body></html>`;
}

function decodeHtml(bytes: Uint8Array): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  const declared = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
  const text = (declared && !/^utf-?8$/i.test(declared) ? decodeWithLabel(bytes, declared) : null) ?? decodeText(bytes);
  if (text === null) throw new ExtractError('encoding', '无法识别网页的文字编码，请另存为 UTF-8 后再上传', 'files.html_encoding');
  return text;
}

/** A DOM subtree's text with block boundaries as line breaks and table cells as tabs. */
export function blockText(node: NodeLike): string {
  const parts: string[] = [];
  const walk = (current: NodeLike) => {
    if (current.nodeType === 3) {
      parts.push((current.textContent ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (current.nodeType !== 1 && current.nodeType !== 9 && current.nodeType !== 11) return;
    const name = current.nodeName.toUpperCase();
    if (SKIPPED.has(name)) return;
    if (name === 'PRE') {
      parts.push('\n', current.textContent ?? '', '\n');
      return;
    }
    const block = BLOCK.has(name);
    if (block) parts.push('\n');
    for (const child of Array.from(current.childNodes)) walk(child);
    if (CELL.has(name)) parts.push('\t');
    if (block) parts.push('\n');
  };
  walk(node);
  return parts
    .join('')
    .split('\n')
    .map((line) => line.trim())
    .join('\n');
}
