import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api/client.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { RefreshCwIcon } from '../ui/icons.ts';
import { errorMessage } from './errors.ts';
import './cognition.css';

/** A form's problem: its own words, else a failed call's worded by `errorMessage` (a 422's field text first). */
export function FormError({ message, error }: { message?: string | null; error?: unknown }) {
  const text = message ?? (error ? errorMessage(error) : null);
  if (!text) return null;
  return (
    <p className="cog-form-error" role="alert">
      {text}
    </p>
  );
}

/** A cognition form dialog's footer: cancel, and submit with its spinner while the save is pending. */
export function FormActions({ busy, cancelLabel, submitLabel, onCancel }: { busy: boolean; cancelLabel: string; submitLabel: string; onCancel: () => void }) {
  return (
    <div className="dialog-actions">
      <button type="button" className="button button-secondary" onClick={onCancel} disabled={busy}>
        {cancelLabel}
      </button>
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy && <span className="spinner spinner-small" />}
        {submitLabel}
      </button>
    </div>
  );
}

/** A read that failed: the catalogue's words and a way to ask again. */
export function LoadFailed({ error, onRetry }: { error: ApiError; onRetry: () => void }) {
  const { t } = useTranslation('cognition');
  return (
    <div className="cog-empty">
      <ErrorBanner error={error} />
      <button type="button" className="button button-secondary" onClick={onRetry}>
        <RefreshCwIcon size={16} />
        {t('platform.retry')}
      </button>
    </div>
  );
}
