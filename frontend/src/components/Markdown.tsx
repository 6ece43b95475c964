import { useMemo } from 'react';
import { linkCitations, renderInlineMarkdown, renderMarkdown, type Source } from '../research/markdown.ts';
import './markdown.css';

/**
 * Sanitised markdown; links (citations included) open in a new tab without access to this page.
 * `inline` renders one line (a card's title, a summary) inside a span, without paragraphs.
 */
export function Markdown({ text, sources = [], className = '', inline = false }: { text: string; sources?: readonly Source[]; className?: string; inline?: boolean }) {
  const html = useMemo(() => (inline ? renderInlineMarkdown(text) : renderMarkdown(linkCitations(text, sources))), [text, sources, inline]);
  const Element = inline ? 'span' : 'div';
  return (
    <Element
      className={`markdown${inline ? '-inline' : ''} ${className}`}
      dangerouslySetInnerHTML={{ __html: html }}
      onClick={(event) => {
        const anchor = (event.target as HTMLElement).closest('a');
        if (!anchor || !anchor.href) return;
        event.preventDefault();
        window.open(anchor.href, '_blank', 'noopener,noreferrer');
      }}
    />
  );
}
