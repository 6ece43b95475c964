/**
 * The readable content of a fetched document. HTML goes through Readability (Firefox Reader View's
 * algorithm) over a linkedom DOM; its article is turned into text with block boundaries kept as line
 * breaks, because the research agent picks sentences and paragraphs out of it.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { blockText, type NodeLike } from '../extract/html.ts';
import { decodeText, decodeWithLabel, normalizeText } from '../extract/decode.ts';

export interface ReadablePage {
  title: string;
  text: string;
  excerpt: string;
  byline?: string;
}

const EXCERPT_CHARS = 200;

/**
 * Text in the charset the response named, else the one the page's meta tag names (HTML only),
 * else UTF-8 or GB18030, the encodings Chinese sites use. Null when the bytes are not text.
 */
export function decodeBody(bytes: Uint8Array, headerCharset: string | undefined, html: boolean): string | null {
  if (headerCharset) {
    const text = decodeWithLabel(bytes, headerCharset);
    if (text !== null) return text;
  }
  if (html) {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
    const declared = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
    const text = declared ? decodeWithLabel(bytes, declared) : null;
    if (text !== null) return text;
  }
  return decodeText(bytes);
}

export function readableHtml(source: string, fallbackTitle: string): ReadablePage {
  const html = withBody(source);
  const { document } = parseHTML(html);
  const pageTitle = document.title?.trim();
  const article = new Readability(document as unknown as Document, { serializer: (node: Node) => node }).parse();
  // Readability rewrites the document it reads, so a page with no article is read from a fresh parse.
  const root = (article?.content as NodeLike | null | undefined) ?? (parseHTML(html).document.body as unknown as NodeLike | null);
  const text = root ? normalizeText(blockText(root)) : '';
  const byline = article?.byline?.trim();
  return {
    title: article?.title?.trim() || pageTitle || fallbackTitle,
    text,
    excerpt: clip(article?.excerpt?.trim() || text),
    ...(byline && { byline }),
  };
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

/** Plain text and Markdown pass through; a Markdown page's first heading is its title. */
export function readableText(text: string, markdown: boolean, fallbackTitle: string): ReadablePage {
  const body = normalizeText(text);
  const heading = markdown ? /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(body)?.[1] : undefined;
  return { title: heading || fallbackTitle, text: body, excerpt: clip(body) };
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= EXCERPT_CHARS ? flat : `${chars.slice(0, EXCERPT_CHARS).join('')}…`;
}

