import { useEffect, useRef, type ReactNode } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { CopyIcon } from '../ui/icons.ts';
import { useFocusWhenLost } from '../ui/returnFocus.ts';
import '../share/share.css';

export interface ShareOutcome {
  tone: 'ok' | 'error';
  text: string;
}

/** Copies `text`; false when the browser refuses (no permission, insecure page). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The frame of a share dialog (notes, trajectories, artifacts): title, subtitle, then either the form
 * that creates a link or `<ShareLinkField>` once there is one, and the outcome line.
 */
export function ShareLinkDialog({ open, onClose, title, subtitle, outcome, children }: { open: boolean; onClose: () => void; title: string; subtitle: string; outcome: ShareOutcome | null; children: ReactNode }) {
  return (
    <Dialog open={open} onClose={onClose} title={title} description={subtitle} className="share-link-dialog">
      {children}
      {outcome && (
        <p className={`share-link-outcome ${outcome.tone}`} role="status">
          {outcome.text}
        </p>
      )}
    </Dialog>
  );
}

/** A created link: the field to select it, then revoke and copy. */
export function ShareLinkField({ url, label, copyLabel, revokeLabel, busy, onCopy, onRevoke, note }: { url: string; label: string; copyLabel: string; revokeLabel: string; busy: boolean; onCopy: () => void; onRevoke: () => void; note?: ReactNode }) {
  const copy = useRef<HTMLButtonElement>(null);
  // The button that created the link is gone: the next step is copying it.
  useFocusWhenLost(copy);
  return (
    <>
      <label className="share-link-field">
        <span>{label}</span>
        <input className="input" readOnly value={url} aria-label={label} onFocus={(event) => event.currentTarget.select()} />
      </label>
      {note}
      <div className="share-link-actions">
        <button type="button" className="button button-secondary button-small" onClick={onRevoke} disabled={busy}>
          {revokeLabel}
        </button>
        <button ref={copy} type="button" className="button button-primary button-small" onClick={onCopy}>
          <CopyIcon size={14} />
          {copyLabel}
        </button>
      </div>
    </>
  );
}

/** One live link in a `<ShareLinkList>`: its address, a line on what it opens and until when, and anything beside it. */
export interface ListedLink {
  id: string;
  url: string;
  /** What the link opens and for how long, in words. */
  meta: string;
  extra?: ReactNode;
}

/**
 * The links that open something now, each with revoke and copy: every kind of share lists its links
 * this way, so one can be withdrawn whenever its owner decides, not only right after making it.
 * `focusId`'s copy button takes the focus once it is listed (the link just made: copying is next).
 */
export function ShareLinkList({ links, labels, revoking, focusId = null, onRevoke, onCopy }: { links: ListedLink[]; labels: { link: string; copy: string; revoke: string }; revoking: string | null; focusId?: string | null; onRevoke: (id: string) => void; onCopy: (url: string) => void }) {
  return (
    <ul className="share-list">
      {links.map((link) => (
        <li key={link.id}>
          <input readOnly value={link.url} aria-label={labels.link} onFocus={(event) => event.currentTarget.select()} />
          <div className="share-list-row">
            <span className="muted small">{link.meta}</span>
            {link.extra}
          </div>
          <div className="share-list-row share-list-actions">
            <button type="button" className="button button-secondary button-small" disabled={revoking !== null} onClick={() => onRevoke(link.id)}>
              {revoking === link.id && <span className="spinner spinner-small" />}
              {labels.revoke}
            </button>
            <CopyButton label={labels.copy} focus={link.id === focusId} onCopy={() => onCopy(link.url)} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function CopyButton({ label, focus, onCopy }: { label: string; focus: boolean; onCopy: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focus) button.current?.focus();
  }, [focus]);
  return (
    <button ref={button} type="button" className="button button-secondary button-small" aria-label={label} onClick={onCopy}>
      <CopyIcon size={14} />
      {label}
    </button>
  );
}
