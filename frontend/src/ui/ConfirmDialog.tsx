import { AlertDialog } from 'radix-ui';
import { type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../api/query.ts';
import { TriangleAlertIcon } from './icons.ts';
import { useReturnFocus } from './returnFocus.ts';
import './ui.css';

export interface ConfirmDialogProps {
  open?: boolean;
  title: string;
  text: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** `danger` for what cannot be taken back. */
  tone?: 'danger' | 'primary';
  /** A returned promise keeps the dialog open, busy, until it settles; a failure is shown in place. */
  onConfirm: () => Promise<unknown> | void;
  /** A second way to go on, for a question with two answers besides Cancel; runs like `onConfirm`. */
  alternative?: { label: string; onConfirm: () => Promise<unknown> | void };
  onClose: () => void;
}

/**
 * A question that must be answered before going on (an alert dialog: focus starts on Cancel, a click
 * outside does not dismiss it), in place of the browser's blocking confirm box.
 */
export function ConfirmDialog({ open = true, title, text, confirmLabel, cancelLabel, tone = 'danger', onConfirm, alternative, onClose }: ConfirmDialogProps) {
  const { t } = useTranslation();
  // The answer's promise is the caller's, started by the click itself; the mutation only watches it settle.
  const answer = useApiMutation({ mutationFn: (pending: Promise<unknown>) => pending, onSuccess: () => onClose() });
  const busy = answer.isPending;
  const returnFocus = useReturnFocus(open);
  const run = (action: () => Promise<unknown> | void) => {
    const pending = action();
    if (!pending) return onClose();
    answer.mutate(pending);
  };
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && !busy && onClose()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className={`dialog dialog-confirm${alternative ? ' dialog-confirm-wide' : ''}`} onCloseAutoFocus={returnFocus} onEscapeKeyDown={(event) => busy && event.preventDefault()}>
          <div className="dialog-head">
            <span className={`dialog-icon dialog-icon-${tone}`}>
              <TriangleAlertIcon size={20} />
            </span>
            <div>
              <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
              <AlertDialog.Description className="dialog-description">{text}</AlertDialog.Description>
            </div>
          </div>
          {answer.error && (
            <p className="dialog-error" role="alert">
              {answer.error.detail || answer.error.userMessage}
            </p>
          )}
          <div className="dialog-actions">
            <AlertDialog.Cancel className="button button-secondary" disabled={busy}>
              {cancelLabel ?? t('ui.cancel')}
            </AlertDialog.Cancel>
            {alternative && (
              <button type="button" className="button button-secondary" disabled={busy} onClick={() => run(alternative.onConfirm)}>
                {alternative.label}
              </button>
            )}
            <button
              type="button"
              className={`button ${tone === 'danger' ? 'button-danger' : 'button-primary'}`}
              disabled={busy}
              onClick={() => run(onConfirm)}
            >
              {busy && <span className="spinner spinner-small" />}
              {confirmLabel}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
