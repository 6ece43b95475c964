import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { ApiError } from '../api/client.ts';
import { AUTHORIZE_PARAMS, leaveFor, oauthApi, type AuthorizeParams, type OAuthClientDto } from './api.ts';
import { useApiMutation, useApiQuery } from '../api/query.ts';
import { useAuth } from '../app/auth/index.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { Logo } from '../components/Logo.tsx';
import { PageLoading, PageState } from '../components/PageState.tsx';
import { ArrowRightIcon, CoinsIcon, KeyRoundIcon, LockIcon, ShieldIcon, TerminalIcon } from '../ui/icons.ts';
import '../signin/auth.css';
import './oauth.css';

/** Where the browser goes back to, as a person reads it: the host and port, which for a native app is this computer. */
const targetOf = (redirectUri: string) => new URL(redirectUri).host;

/** The consent screen of the authorisation server (RFC 6749 §4.1): names the app and what it may do; the answer goes back to the app. */
export default function OAuthAuthorizePage() {
  const [search] = useSearchParams();
  const params = useMemo<AuthorizeParams>(() => Object.fromEntries(AUTHORIZE_PARAMS.flatMap((name) => (search.has(name) ? [[name, search.get(name)!]] : []))), [search]);
  const request = useApiQuery({ queryKey: ['oauth', 'authorize', params], queryFn: () => oauthApi.request(params), staleTime: Infinity, gcTime: 0, retry: false });
  const [leaving, setLeaving] = useState(false);
  const redirectTo = request.data?.status === 'error' ? request.data.redirect_to : null;

  // A request whose client and redirect check out but which is otherwise wrong goes back to the app at once, as the RFC says.
  useEffect(() => {
    if (redirectTo) leaveFor(redirectTo);
  }, [redirectTo]);

  if (request.isPending) return <PageLoading />;
  if (request.error) return <InvalidRequest error={request.error} />;
  if (request.data.status === 'error' || leaving) return <Returning />;
  return <Consent params={params} client={request.data.client} scopes={request.data.scopes} redirectUri={request.data.redirect_uri} native={request.data.native} onLeave={() => setLeaving(true)} />;
}

function Consent({ params, client, scopes, redirectUri, native, onLeave }: { params: AuthorizeParams; client: OAuthClientDto; scopes: string[]; redirectUri: string; native: boolean; onLeave: () => void }) {
  const { t, i18n } = useTranslation('account');
  const { user } = useAuth();
  const answering = useApiMutation({
    mutationFn: (decision: 'approve' | 'deny') => oauthApi.answer(params, decision),
    onSuccess: ({ redirect_to }) => {
      onLeave();
      leaveFor(redirect_to);
    },
  });
  // Answered, the page is leaving for the app: the buttons stay as they are until it has gone.
  const busy = answering.isPending || answering.isSuccess ? answering.variables : null;
  const answer = (decision: 'approve' | 'deny') => answering.mutate(decision);
  const name = i18n.language === 'en' ? client.name_en : client.name;

  return (
    <div className="auth-page">
      <section className="auth-card auth-card-wide oauth-card" aria-labelledby="oauth-title">
        <div className="auth-head">
          <div className="oauth-pair" aria-hidden="true">
            <Logo size={40} />
            <span className="oauth-pair-link" />
            <span className="dialog-icon">{native ? <TerminalIcon size={22} /> : <KeyRoundIcon size={22} />}</span>
          </div>
          <h1 id="oauth-title">{t('oauth.title', { client: name })}</h1>
          <p>{t('oauth.subtitle')}</p>
          {user && <span className="chip">{t('oauth.signedInAs', { name: user.name })}</span>}
        </div>
        {answering.error && <ErrorBanner error={answering.error} />}
        <div className="oauth-scopes">
          <h2>{t('oauth.mayTitle')}</h2>
          <ul>
            {/* What the app asked for, scope by scope: `account` is all of it. */}
            {scopes.includes('account') ? (
              <li>
                <ShieldIcon size={18} />
                <span>{t('oauth.may.act')}</span>
              </li>
            ) : (
              <>
                {scopes.includes('engineer') && (
                  <li>
                    <ShieldIcon size={18} />
                    <span>{t('oauth.may.engineer')}</span>
                  </li>
                )}
                {scopes.includes('audit:read') && (
                  <li>
                    <ShieldIcon size={18} />
                    <span>{t('oauth.may.audit')}</span>
                  </li>
                )}
              </>
            )}
            <li>
              <CoinsIcon size={18} />
              <span>{t('oauth.may.budget')}</span>
            </li>
            <li>
              <KeyRoundIcon size={18} />
              <span>{t('oauth.may.stay')}</span>
            </li>
          </ul>
        </div>
        <p className="oauth-note">
          <LockIcon size={14} />
          <span>{t('oauth.never')}</span>
        </p>
        <p className="oauth-return">{t(native ? 'oauth.returnLocal' : 'oauth.returnRemote', { target: targetOf(redirectUri) })}</p>
        <div className="oauth-actions">
          <button className="button button-secondary" type="button" onClick={() => answer('deny')} disabled={busy !== null}>
            {t('oauth.deny')}
          </button>
          <button className="button button-primary" type="button" onClick={() => answer('approve')} disabled={busy !== null} autoFocus>
            {busy === 'approve' ? t('oauth.returning') : t('oauth.approve')}
          </button>
        </div>
      </section>
    </div>
  );
}

function Returning() {
  const { t } = useTranslation('account');
  return (
    <div className="page-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{t('oauth.returning')}</span>
    </div>
  );
}

function InvalidRequest({ error }: { error: ApiError }) {
  const { t } = useTranslation('account');
  return (
    <PageState
      icon={KeyRoundIcon}
      tone="danger"
      title={t('oauth.invalidTitle')}
      actions={
        <Link className="button button-primary" to="/">
          <ArrowRightIcon size={16} />
          {t('oauth.home')}
        </Link>
      }
    >
      <div className="oauth-invalid">
        <ErrorBanner error={error} />
        <p>{t('oauth.invalidText')}</p>
      </div>
    </PageState>
  );
}
