import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { oauthApi, type AuthorisedApp } from '../api/oauth.ts';
import { queryClient, queryKeys, useApiQuery } from '../api/query.ts';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { KeyRoundIcon, TerminalIcon, Trash2Icon } from '../ui/icons.ts';
import { useToast } from '../ui/Toast.tsx';
import { intlLocale } from '../i18n/language.ts';
import { AccountCardHead } from './AccountCardHead.tsx';

/** The apps the user authorised through OAuth (the command-line assistant first), each revocable at once. */
export function AuthorisedApps() {
  const { t, i18n } = useTranslation('account');
  const toast = useToast();
  const apps = useApiQuery({ queryKey: queryKeys.account('oauth-apps'), queryFn: oauthApi.apps, staleTime: 0, gcTime: 0 });
  const [revoking, setRevoking] = useState<AuthorisedApp | null>(null);
  const en = i18n.language === 'en';
  const when = (iso: string) => new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const nameOf = (app: AuthorisedApp) => (en ? app.client_name_en : app.client_name);

  async function revoke(app: AuthorisedApp) {
    await oauthApi.revoke(app.id);
    queryClient.setQueryData<{ grants: AuthorisedApp[] }>(queryKeys.account('oauth-apps'), (current) => current && { grants: current.grants.filter((row) => row.id !== app.id) });
    toast({ title: t('apps.revoked'), tone: 'success' });
  }

  return (
    <section className="account-card account-apps" aria-labelledby="account-apps-title">
      <AccountCardHead icon={<KeyRoundIcon />} title={t('apps.title')} titleId="account-apps-title" />
      {apps.error && <p className="account-notice account-notice-error">{apps.error.userMessage}</p>}
      {apps.data && apps.data.grants.length === 0 && <p className="account-empty">{t('apps.empty')}</p>}
      {apps.data && apps.data.grants.length > 0 && (
        <ul className="account-apps-list">
          {apps.data.grants.map((app) => (
            <li key={app.id} className="account-app">
              <span className="account-app-icon" aria-hidden="true">
                {app.client_id === 'scriptorium-cli' ? <TerminalIcon size={16} /> : <KeyRoundIcon size={16} />}
              </span>
              <div className="account-app-text">
                <strong>{nameOf(app)}</strong>
                <span>
                  {t('apps.grantedAt', { time: when(app.granted_at) })} · {t('apps.lastUsed', { time: when(app.last_used_at) })}
                </span>
              </div>
              <button className="button button-secondary button-small" type="button" onClick={() => setRevoking(app)}>
                <Trash2Icon size={14} />
                {t('apps.revoke')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {revoking && (
        <ConfirmDialog
          title={t('apps.revokeTitle', { client: nameOf(revoking) })}
          text={t('apps.revokeText')}
          confirmLabel={t('apps.revoke')}
          onConfirm={() => revoke(revoking)}
          onClose={() => setRevoking(null)}
        />
      )}
    </section>
  );
}
