import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { accountApi, type RegistrationSettings } from '../account/api.ts';
import { EmailCodeField } from '../account/EmailCodeField.tsx';
import { register } from '../api/auth.ts';
import type { ApiError } from '../api/client.ts';
import { queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { login } from '../app/auth/index.ts';
import { afterLoginPath } from '../app/guard.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { Field } from '../components/Field.tsx';
import { Logo } from '../components/Logo.tsx';
import './auth.css';

interface Form {
  username: string;
  email: string;
  nickname: string;
  password: string;
  confirmPassword: string;
  inviteCode: string;
  emailCode: string;
}

type FieldName = keyof Form;

// The nickname may stay empty: the server then uses the user name.
const REQUIRED: ReadonlyArray<Exclude<FieldName, 'inviteCode' | 'emailCode' | 'nickname'>> = ['username', 'email', 'password', 'confirmPassword'];

// 422 locations name the wire fields; the form names some of them differently.
const FIELD_OF_WIRE: Record<string, FieldName> = { invite_code: 'inviteCode', email_verification_code: 'emailCode' };

// Refusals about one field (a name already taken, an invite code used up) are marked on that field too.
const FIELD_OF_CODE: Readonly<Record<string, FieldName>> = {
  'auth.username_taken': 'username',
  'auth.email_taken': 'email',
  'auth.invite_invalid': 'inviteCode',
  'auth.invite_used': 'inviteCode',
  'auth.code_missing': 'emailCode',
  'auth.code_expired': 'emailCode',
  'auth.code_locked': 'emailCode',
  'auth.code_wrong': 'emailCode',
};

/** A refusal's field messages, under the form's names: a 422's by location, another's by its code. */
function fieldErrorsOf(apiError: ApiError, form: Form): Partial<Record<FieldName, string>> {
  const mapped: Partial<Record<FieldName, string>> = {};
  for (const [wire, message] of Object.entries(apiError.fieldErrors)) {
    const field = FIELD_OF_WIRE[wire] ?? (wire in form ? (wire as FieldName) : undefined);
    if (field) mapped[field] = message;
  }
  const coded = apiError.code === undefined ? undefined : FIELD_OF_CODE[apiError.code];
  if (coded) mapped[coded] = apiError.userMessage;
  return mapped;
}

export default function RegisterPage() {
  const { t } = useTranslation();
  const { t: tAccount } = useTranslation('account');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form, setForm] = useState<Form>({ username: '', email: '', nickname: '', password: '', confirmPassword: '', inviteCode: '', emailCode: '' });
  // The server says whether invite codes and e-mail codes are required; until it answers (or if it cannot), neither is.
  const settings: Pick<RegistrationSettings, 'invite_code_required' | 'email_verification_required'> = useApiQuery({ queryKey: queryKeys.registrationSettings, queryFn: accountApi.registrationSettings }).data ?? { invite_code_required: false, email_verification_required: false };
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FieldName, string>>>({});

  const redirect = params.get('redirect');

  const signUp = useApiMutation({
    mutationFn: async (username: string) => {
      await register({
        username,
        email: form.email.trim(),
        nickname: form.nickname.trim(),
        password: form.password,
        ...(form.inviteCode.trim() !== '' && { invite_code: form.inviteCode.trim() }),
        ...(form.emailCode !== '' && { email_verification_code: form.emailCode }),
      });
      // The new account signs in straight away: asking for the password again adds nothing.
      await login(username, form.password);
    },
    onSuccess: () => navigate(afterLoginPath(redirect), { replace: true }),
    onError: (apiError) => setFieldErrors(fieldErrorsOf(apiError, form)),
  });
  // A refusal about one field (a name taken) is said beside that field, not again above the form.
  const error = signUp.error && Object.keys(fieldErrorsOf(signUp.error, form)).length === 0 ? signUp.error : null;
  // Still busy after success: the page stays until the navigation replaces it.
  const busy = signUp.isPending || signUp.isSuccess;

  const bind = (name: FieldName) => ({
    name,
    value: form[name],
    error: fieldErrors[name],
    onChange: (event: { target: { value: string } }) => setForm((current) => ({ ...current, [name]: event.target.value })),
  });

  function validate(): Partial<Record<FieldName, string>> {
    const errors: Partial<Record<FieldName, string>> = {};
    for (const name of REQUIRED) {
      if (form[name].trim() === '') errors[name] = t('auth.required', { field: t(`auth.fields.${name}`) });
    }
    if (settings.invite_code_required && form.inviteCode.trim() === '') errors.inviteCode = t('auth.required', { field: t('auth.fields.inviteCode') });
    if (settings.email_verification_required && form.emailCode === '') errors.emailCode = t('auth.required', { field: tAccount('register.emailCode') });
    if (!errors.confirmPassword && form.password !== form.confirmPassword) errors.confirmPassword = t('auth.passwordMismatch');
    return errors;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = validate();
    setFieldErrors(errors);
    signUp.reset();
    if (Object.keys(errors).length > 0) return;
    signUp.mutate(form.username.trim());
  }

  return (
    <div className="auth-page">
      <form className="auth-card auth-card-wide" onSubmit={submit} noValidate>
        <div className="auth-head">
          <Logo size={40} />
          <h1>{t('auth.register.title')}</h1>
          <p>{t('auth.register.subtitle')}</p>
        </div>
        {error && <ErrorBanner error={error} form />}
        <div className="field-grid">
          <Field label={t('auth.fields.username')} placeholder={t('auth.fields.usernamePlaceholder')} autoComplete="username" autoFocus {...bind('username')} />
          <Field label={t('auth.fields.nickname')} placeholder={t('auth.fields.nicknamePlaceholder')} autoComplete="nickname" optional {...bind('nickname')} />
        </div>
        <Field label={t('auth.fields.email')} placeholder={t('auth.fields.emailPlaceholder')} type="email" autoComplete="email" {...bind('email')} />
        <EmailCodeField
          email={form.email}
          value={form.emailCode}
          onChange={(emailCode) => setForm((current) => ({ ...current, emailCode }))}
          error={fieldErrors.emailCode}
          required={settings.email_verification_required}
        />
        <div className="field-grid">
          <Field label={t('auth.fields.password')} placeholder={t('auth.fields.passwordPlaceholder')} type="password" autoComplete="new-password" {...bind('password')} />
          <Field
            label={t('auth.fields.confirmPassword')}
            placeholder={t('auth.fields.confirmPasswordPlaceholder')}
            type="password"
            autoComplete="new-password"
            {...bind('confirmPassword')}
          />
        </div>
        <Field
          label={t('auth.fields.inviteCode')}
          placeholder={settings.invite_code_required ? tAccount('register.inviteCodeRequiredPlaceholder') : t('auth.fields.inviteCodePlaceholder')}
          optional={!settings.invite_code_required}
          required={settings.invite_code_required}
          autoComplete="off"
          {...bind('inviteCode')}
        />
        <button className="button button-primary button-block" type="submit" disabled={busy}>
          {busy ? t('auth.register.submitting') : t('auth.register.submit')}
        </button>
        <p className="auth-switch">
          {t('auth.register.hasAccount')}{' '}
          <Link to={redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login'}>{t('auth.register.toLogin')}</Link>
        </p>
      </form>
    </div>
  );
}
