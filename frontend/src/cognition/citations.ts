import type { CitedSource } from '@scriptorium/domain/protocol/http/cognition';
export type { CitedSource } from '@scriptorium/domain/protocol/http/cognition';

export const sourceAnchor = (n: number): string => `cognition-source-${n}`;

/**
 * Turns bare markers such as [1] or [2][3] into links to the numbered entry of the sources list on
 * the same page (notes have no address a reader could open, so the list is where a citation leads).
 * Markers already written as links or reference definitions, and numbers with no source, stay as they are;
 * adjacent markers ([1][2]) are two citations, not a reference-style link.
 */
export function anchorCitations(markdown: string, sources: readonly Pick<CitedSource, 'n'>[]): string {
  const known = new Set(sources.map((source) => source.n));
  if (known.size === 0) return markdown;
  return markdown.replace(/\[(\d{1,3})\](?![(:])/gu, (marker, digits: string) => (known.has(Number(digits)) ? `[\\[${digits}\\]](#${sourceAnchor(Number(digits))})` : marker));
}

/** Where a source opens: a page at its address, a cognition on its display page; a note nowhere (it is its owner's). */
export function sourceHref(source: CitedSource): { kind: 'external'; href: string } | { kind: 'internal'; href: string } | null {
  if (source.kind === 'url' && source.url && /^https?:\/\//iu.test(source.url)) return { kind: 'external', href: source.url };
  if (source.kind === 'cognition' && source.ref_id) return { kind: 'internal', href: `/cognition/display?id=${encodeURIComponent(source.ref_id)}` };
  return null;
}
