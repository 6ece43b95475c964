import { useMemo } from 'react';
import { linkCitations, renderMarkdown, type Source } from '../research/markdown.ts';

/** Sanitised markdown; links (citations included) open in a new tab without access to this page. */
export function Markdown({ text, sources = [], className = '' }: { text: string; sources?: readonly Source[]; className?: string }) {
  const html = useMemo(() => renderMarkdown(linkCitations(text, sources)), [text, sources]);
  return (
    <div
      className={`markdown ${className}`}
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
