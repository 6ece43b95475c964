import { useRef, type ReactNode } from 'react';
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
