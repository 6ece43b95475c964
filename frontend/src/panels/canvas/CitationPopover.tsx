import { Plugin } from 'prosemirror-state';
import { Decoration, DecorationSet } from 'prosemirror-view';
import { Popover } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import type { CitationCheck } from '@scriptorium/domain/protocol/research';
import { checkOf, UNVERIFIED_MARK } from './citationChecks.ts';

/** A citation link the user clicked: its number, which link to that source it is, and where it sits in the canvas. */
export interface OpenCitation {
  n: number;
  nth: number;
  href: string;
  top: number;
  left: number;
}

/** Shows the agent's unverified marks as marks, not as ordinary text. */
export const unverifiedPlugin = new Plugin({
  props: {
    decorations(state) {
      const found: Decoration[] = [];
      state.doc.descendants((node, pos) => {
        if (!node.isText) return;
        for (const match of (node.text ?? '').matchAll(UNVERIFIED_MARK)) found.push(Decoration.inline(pos + match.index, pos + match.index + match[0].length, { class: 'citation-unverified' }));
      });
      return DecorationSet.create(state.doc, found);
    },
  },
});

/** What the cited source says where it bears on the sentence, and what the check made of it. */
export function CitationPopover({ citation, content, checks, onClose }: { citation: OpenCitation; content: string; checks: readonly CitationCheck[]; onClose: () => void }) {
  const { t } = useTranslation();
  const check = checkOf(content, checks, citation.n, citation.nth);
  const verdict = check ? (check.action === 'repaired' ? 'repaired' : check.verdict === 'dangling' ? 'unchecked' : check.verdict) : 'unchecked';
  return (
    <Popover.Root open onOpenChange={(open) => !open && onClose()}>
      <Popover.Anchor className="citation-anchor" style={{ top: citation.top, left: citation.left }} />
      <Popover.Portal>
        <Popover.Content className="citation-popover" side="bottom" align="start" sideOffset={4} collisionPadding={12} aria-label={t('canvas.citation.title', { n: citation.n })}>
          <strong>{t('canvas.citation.title', { n: citation.n })}</strong>
          {check?.excerpt && <blockquote className="citation-excerpt">{check.excerpt}</blockquote>}
          <p className={`citation-verdict citation-verdict-${verdict}`}>{t(`canvas.citation.${verdict}`)}</p>
          {/^https?:\/\//.test(citation.href) && (
            <a href={citation.href} target="_blank" rel="noreferrer">
              {t('canvas.citation.open')}
            </a>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
