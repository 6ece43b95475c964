import { use, useMemo } from 'react';
import type * as Renderer from '../research/markdown.ts';
import './markdown.css';

let renderer: Promise<typeof Renderer> | null = null;

/**
 * Starts loading the Markdown renderer (marked and DOMPurify: building marked's rules is a long task
 * on a slow phone). A screen whose first view is mostly Markdown calls it when its module loads, so
 * the renderer arrives beside its data; the research view loads it only once a message needs it.
 */
export function preloadMarkdown(): Promise<typeof Renderer> {
  if (renderer) return renderer;
  const loading = import('../research/markdown.ts').then(
    (module) => {
      // React's `use` reads a settled promise's `status` and `value`: once the renderer is here, every
      // later Markdown renders at once instead of suspending for a microtask.
      Object.assign(loading, { status: 'fulfilled', value: module });
      return module;
    },
    (error: unknown) => {
      // The route's error view says the chunk did not load; the next render asks for it again.
      renderer = null;
      throw error;
    },
  );
  // A preload nobody waits for may fail (offline): that is no error of the page, and whoever renders
  // Markdown next asks again and sees the failure itself.
  loading.catch(() => undefined);
  renderer = loading;
  return loading;
}

/** One empty list for every Markdown without sources, so that its rendering is kept between renders. */
const NO_SOURCES: readonly Renderer.Source[] = [];

/**
 * Sanitised markdown; links (citations included) open in a new tab without access to this page.
 * `inline` renders one line (a card's title, a summary) inside a span, without paragraphs.
 * Suspends until the renderer is there; the nearest Suspense boundary shows meanwhile.
 */
export function Markdown({ text, sources = NO_SOURCES, className = '', inline = false }: { text: string; sources?: readonly Renderer.Source[]; className?: string; inline?: boolean }) {
  const { linkCitations, renderInlineMarkdown, renderMarkdown } = use(preloadMarkdown());
  const html = useMemo(() => (inline ? renderInlineMarkdown(text) : renderMarkdown(linkCitations(text, sources))), [text, sources, inline, linkCitations, renderInlineMarkdown, renderMarkdown]);
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
