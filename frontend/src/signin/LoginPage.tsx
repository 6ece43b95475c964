import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useApiMutation } from '../api/query.ts';
import { login } from '../app/auth/index.ts';
import { afterLoginPath } from '../app/guard.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { Field } from '../components/Field.tsx';
import { Logo } from '../components/Logo.tsx';
import { ForgotPasswordDialog } from './ForgotPasswordDialog.tsx';
import './auth.css';

export default function LoginPage() {
  const { t } = useTranslation();
  const { t: tAccount } = useTranslation('account');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState<{ username?: string; password?: string }>({});
  const [forgot, setForgot] = useState(false);

  const redirect = params.get('redirect');
  const signingIn = useApiMutation({
    mutationFn: (credentials: { name: string; password: string }) => login(credentials.name, credentials.password),
    onSuccess: () => navigate(afterLoginPath(redirect), { replace: true }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const name = username.trim();
    const nextMissing = {
      ...(name === '' && { username: t('auth.required', { field: t('auth.fields.username') }) }),
      ...(password === '' && { password: t('auth.required', { field: t('auth.fields.password') }) }),
    };
    setMissing(nextMissing);
    if (Object.keys(nextMissing).length > 0) return;
    signingIn.mutate({ name, password });
  }

  return (
    <div className="auth-page">
      <form className="auth-card" onSubmit={submit} noValidate>
        <div className="auth-head">
          <Logo size={40} />
          <h1>{t('auth.login.title')}</h1>
          <p>{t('auth.login.subtitle')}</p>
        </div>
        {signingIn.error && <ErrorBanner error={signingIn.error} form />}
        <Field
          label={t('auth.fields.username')}
          placeholder={t('auth.fields.usernamePlaceholder')}
          autoComplete="username"
          autoFocus
          name="username"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          error={missing.username}
        />
        <Field
          label={t('auth.fields.password')}
          placeholder={t('auth.fields.passwordPlaceholder')}
          type="password"
          autoComplete="current-password"
          name="password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={missing.password}
        />
        <button className="link-button auth-forgot" type="button" onClick={() => setForgot(true)}>
          {tAccount('password.forgot')}
        </button>
        <button className="button button-primary button-block" type="submit" disabled={signingIn.isPending}>
          {signingIn.isPending ? t('auth.login.submitting') : t('auth.login.submit')}
        </button>
        <p className="auth-switch">
          {t('auth.login.noAccount')}{' '}
          <Link to={redirect ? `/register?redirect=${encodeURIComponent(redirect)}` : '/register'}>{t('auth.login.toRegister')}</Link>
        </p>
      </form>
      {forgot && <ForgotPasswordDialog onClose={() => setForgot(false)} />}
    </div>
  );
}
