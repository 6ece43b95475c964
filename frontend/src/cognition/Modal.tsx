import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon.tsx';
import { errorMessage } from './errors.ts';

/**
 * A modal <dialog> (focus trap, Escape and backdrop come with it), mounted only while shown so each
 * opening starts with fresh fields.
 */
export function Modal({ label, onClose, children, className = '', busy = false }: { label: string; onClose: () => void; children: ReactNode; className?: string; busy?: boolean }) {
  const { t } = useTranslation('cognition');
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    dialog?.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className={`dialog cog-dialog ${className}`}
      aria-label={label}
      onCancel={(event) => {
        // Escape must not drop a request half-way; the buttons say when it can be left.
        if (busy) event.preventDefault();
      }}
      onClose={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <button className="icon-button dialog-close" type="button" onClick={onClose} disabled={busy} aria-label={t('dialog.close')}>
        <Icon name="close" size={18} />
      </button>
      {children}
    </dialog>
  );
}

export function ConfirmDialog({ title, text, confirm, cancel, onConfirm, onClose }: { title: string; text: string; confirm: string; cancel: string; onConfirm: () => Promise<unknown>; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal label={title} onClose={onClose} busy={busy} className="cog-confirm">
      <div className="cog-confirm-icon">
        <Icon name="alert" size={22} />
      </div>
      <h2 className="dialog-title">{title}</h2>
      <p className="cog-dialog-text">{text}</p>
      {error && (
        <p className="cog-form-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={onClose} disabled={busy}>
          {cancel}
        </button>
        <button
          type="button"
          className="button button-danger"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            setError(null);
            onConfirm().then(
              () => onClose(),
              (failure: unknown) => {
                setBusy(false);
                setError(errorMessage(failure));
              },
            );
          }}
        >
          {busy && <span className="spinner spinner-small" />}
          {confirm}
        </button>
      </div>
    </Modal>
  );
}

export function TextAreaField({ label, value, onChange, error, rows = 4, placeholder, hint }: { label: string; value: string; onChange: (value: string) => void; error?: string | undefined; rows?: number; placeholder?: string; hint?: string }) {
  const id = useId();
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <textarea id={id} className="cog-textarea" rows={rows} value={value} placeholder={placeholder} aria-invalid={error ? true : undefined} onChange={(event) => onChange(event.target.value)} />
      {hint && !error && <p className="cog-field-hint">{hint}</p>}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
