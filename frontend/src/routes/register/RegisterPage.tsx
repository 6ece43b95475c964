import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { register } from '../../api/auth.ts';
import { toApiError, type ApiError } from '../../api/client.ts';
import { auth } from '../../app/auth/index.ts';
import { afterLoginPath } from '../../app/guard.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { Field } from '../../components/Field.tsx';
import { Logo } from '../../components/Icon.tsx';

interface Form {
  username: string;
  email: string;
  nickname: string;
  password: string;
  confirmPassword: string;
  inviteCode: string;
}

type FieldName = keyof Form;

const REQUIRED: ReadonlyArray<FieldName> = ['username', 'email', 'nickname', 'password', 'confirmPassword'];

// 422 locations name the wire fields; the form names one of them differently.
const FIELD_OF_WIRE: Record<string, FieldName> = { invite_code: 'inviteCode' };

export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form, setForm] = useState<Form>({ username: '', email: '', nickname: '', password: '', confirmPassword: '', inviteCode: '' });
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  const redirect = params.get('redirect');

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
    if (!errors.confirmPassword && form.password !== form.confirmPassword) errors.confirmPassword = t('auth.passwordMismatch');
    return errors;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const errors = validate();
    setFieldErrors(errors);
    setError(null);
    if (Object.keys(errors).length > 0) return;
    setBusy(true);
    const username = form.username.trim();
    try {
      await register({
        username,
        email: form.email.trim(),
        nickname: form.nickname.trim(),
        password: form.password,
        ...(form.inviteCode.trim() !== '' && { invite_code: form.inviteCode.trim() }),
      });
      // The new account signs in straight away: asking for the password again adds nothing.
      await auth.login(username, form.password);
      navigate(afterLoginPath(redirect), { replace: true });
    } catch (caught) {
      const apiError = toApiError(caught);
      const mapped: Partial<Record<FieldName, string>> = {};
      for (const [wire, message] of Object.entries(apiError.fieldErrors)) {
        const field = FIELD_OF_WIRE[wire] ?? (wire in form ? (wire as FieldName) : undefined);
        if (field) mapped[field] = message;
      }
      setFieldErrors(mapped);
      setError(apiError);
      setBusy(false);
    }
  }

  return (
    <div className="auth-page">
      <form className="auth-card auth-card-wide" onSubmit={submit} noValidate>
        <div className="auth-head">
          <Logo size={40} />
          <h1>{t('auth.register.title')}</h1>
          <p>{t('auth.register.subtitle')}</p>
        </div>
        {error && <ErrorBanner error={error} />}
        <div className="field-grid">
          <Field label={t('auth.fields.username')} placeholder={t('auth.fields.usernamePlaceholder')} autoComplete="username" autoFocus {...bind('username')} />
          <Field label={t('auth.fields.nickname')} placeholder={t('auth.fields.nicknamePlaceholder')} autoComplete="nickname" {...bind('nickname')} />
        </div>
        <Field label={t('auth.fields.email')} placeholder={t('auth.fields.emailPlaceholder')} type="email" autoComplete="email" {...bind('email')} />
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
        <Field label={t('auth.fields.inviteCode')} placeholder={t('auth.fields.inviteCodePlaceholder')} optional autoComplete="off" {...bind('inviteCode')} />
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
