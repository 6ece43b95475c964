import { useId, type InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: string;
  error?: string | undefined;
  optional?: boolean;
};

export function Field({ label, error, optional = false, ...input }: FieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>
        {label}
        {optional && <span className="field-optional">{t('auth.fields.optional')}</span>}
      </label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...input} />
      {/* Said as it appears: a refusal marked on its field has no banner above the form to announce it. */}
      {error && (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
