/**
 * The readable content of a fetched document. HTML goes through Readability (Firefox Reader View's
 * algorithm) over a linkedom DOM; its article is turned into text with block boundaries kept as line
 * breaks, because the research agent picks sentences and paragraphs out of it.
 */
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

/** linkedom and Readability are loaded by the first page read, not by every process that may read one. */
export async function readableHtml(source: string, fallbackTitle: string): Promise<ReadablePage> {
  const { blockText, readDocument } = await import('../extract/html.ts');
  const { article, pageTitle, root } = readDocument(source);
  const text = root ? normalizeText(blockText(root)) : '';
  const byline = article?.byline?.trim();
  return {
    title: article?.title?.trim() || pageTitle || fallbackTitle,
    text,
    excerpt: clip(article?.excerpt?.trim() || text),
    ...(byline && { byline }),
  };
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

