import type { CitationCheck } from '@scriptorium/domain/protocol/research';

/** The mark the research agent leaves on a claim its source does not support, in either language. */
export const UNVERIFIED_MARK = /⚠〔待核实：[^〕]*〕|⚠ \(unverified: [^)]*\)/gu;

/**
 * The check of the `nth` (0-based) link to source `n` in a version: that link's place in the
 * version's Markdown, then the check of source n whose sentence starts last before it.
 */
export function checkOf(content: string, checks: readonly CitationCheck[], n: number, nth: number): CitationCheck | null {
  let at = -1;
  for (let seen = 0; seen <= nth; seen++) {
    at = content.indexOf(`[[${n}]](`, at + 1);
    if (at === -1) return null;
  }
  const before = checks.filter((check) => check.n === n && check.offset <= at && check.action !== 'removed');
  return before.reduce<CitationCheck | null>((best, check) => (best === null || check.offset >= best.offset ? check : best), null);
}
