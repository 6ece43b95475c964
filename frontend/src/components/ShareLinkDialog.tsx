import type { ReactNode, RefObject } from 'react';
import { useId } from 'react';
import { Icon } from './Icon.tsx';

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
 * The frame of a share dialog (notes, trajectories): title, subtitle, close button, then either the
 * form that creates a link or `<ShareLinkField>` once there is one, and the outcome line.
 */
export function ShareLinkDialog({
  dialogRef,
  title,
  subtitle,
  closeLabel,
  outcome,
  children,
}: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  title: string;
  subtitle: string;
  closeLabel: string;
  outcome: ShareOutcome | null;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <dialog ref={dialogRef} className="share-link-dialog" aria-labelledby={`${id}-title`}>
      <header>
        <h2 id={`${id}-title`}>{title}</h2>
        <button type="button" className="icon-button" aria-label={closeLabel} onClick={() => dialogRef.current?.close()}>
          <Icon name="close" size={16} />
        </button>
      </header>
      <p className="muted">{subtitle}</p>
      {children}
      {outcome && (
        <p className={`share-link-outcome ${outcome.tone}`} role="status">
          {outcome.text}
        </p>
      )}
    </dialog>
  );
}

/** A created link: the field to select it, then revoke and copy. */
export function ShareLinkField({ url, label, copyLabel, revokeLabel, busy, onCopy, onRevoke, note }: { url: string; label: string; copyLabel: string; revokeLabel: string; busy: boolean; onCopy: () => void; onRevoke: () => void; note?: ReactNode }) {
  return (
    <>
      <label className="share-link-field">
        <span>{label}</span>
        <input readOnly value={url} aria-label={label} onFocus={(event) => event.currentTarget.select()} />
      </label>
      {note}
      <div className="share-link-actions">
        <button type="button" className="button button-secondary button-small" onClick={onRevoke} disabled={busy}>
          {revokeLabel}
        </button>
        <button type="button" className="button button-primary button-small" onClick={onCopy}>
          <Icon name="copy" size={14} />
          {copyLabel}
        </button>
      </div>
    </>
  );
}
