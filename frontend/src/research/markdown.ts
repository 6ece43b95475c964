import DOMPurify from 'dompurify';
import { marked } from 'marked';

export interface Source {
  title: string;
  url: string;
}

/**
 * Turns bare citation markers such as [1] or [2][3] into links to the numbered source. A marker
 * already written as a markdown link, or one with no source behind it, is left alone.
 */
export function linkCitations(markdown: string, sources: readonly Source[]): string {
  if (sources.length === 0) return markdown;
  return markdown.replace(/\[(\d{1,3})\](?![(:[])/g, (marker, digits: string) => {
    const source = sources[Number(digits) - 1];
    if (!source || !/^https?:\/\//i.test(source.url)) return marker;
    return `[\\[${digits}\\]](${source.url.replace(/[()\s]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)} "${source.title.replace(/"/g, "'")}")`;
  });
}

/** Markdown to HTML that is safe to insert: marked renders, DOMPurify removes anything active. */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(html, { ADD_ATTR: ['target'] });
}

/** One line of Markdown (bold, code, links) without paragraphs, for text inside cards. */
export function renderInlineMarkdown(markdown: string): string {
  return DOMPurify.sanitize(marked.parseInline(markdown, { async: false, gfm: true }), { ADD_ATTR: ['target'] });
}
