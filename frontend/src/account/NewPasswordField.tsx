import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../components/Field.tsx';

/** The field a new password is typed into, wherever one is set: its label, hint, autocomplete and the too-short error. */
export function NewPasswordField({ value, onChange, tooShort, required }: { value: string; onChange: (event: ChangeEvent<HTMLInputElement>) => void; tooShort: boolean; required?: boolean }) {
  const { t } = useTranslation('account');
  return (
    <Field
      label={t('password.next')}
      placeholder={t('password.nextHint')}
      type="password"
      autoComplete="new-password"
      name="new_password"
      value={value}
      onChange={onChange}
      error={tooShort ? t('password.tooShort') : undefined}
      {...(required && { required })}
    />
  );
}
