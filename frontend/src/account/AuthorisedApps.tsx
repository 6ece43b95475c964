import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { oauthApi, type AppSignIn, type AuthorisedApp } from '../oauth/api.ts';
import { queryClient, queryKeys, useApiQuery } from '../api/query.ts';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { KeyRoundIcon, TerminalIcon, Trash2Icon } from '../ui/icons.ts';
import { useToast } from '../ui/Toast.tsx';
import { intlLocale } from '../i18n/language.ts';
import { AccountCardHead } from './AccountCardHead.tsx';

const SCOPE_LABELS = { account: 'apps.scope.account', engineer: 'apps.scope.engineer', 'audit:read': 'apps.scope.audit' } as const;

/** An app authorised through OAuth, or a password sign-in an app made: both are ended from here. */
type Row = { kind: 'grant'; app: AuthorisedApp } | { kind: 'signIn'; signIn: AppSignIn };

const idOf = (row: Row) => (row.kind === 'grant' ? row.app.id : row.signIn.id);
const lastUsedOf = (row: Row) => (row.kind === 'grant' ? row.app.last_used_at : row.signIn.last_used_at);

/**
 * The apps the user authorised through OAuth and the password sign-ins apps made (the command-line
 * assistant first), most recently used first, each revocable at once.
 */
export function AuthorisedApps() {
  const { t, i18n } = useTranslation('account');
  const toast = useToast();
  const apps = useApiQuery({ queryKey: queryKeys.account('oauth-apps'), queryFn: oauthApi.apps, staleTime: 0, gcTime: 0 });
  const signIns = useApiQuery({ queryKey: queryKeys.account('app-sign-ins'), queryFn: oauthApi.signIns, staleTime: 0, gcTime: 0 });
  const [revoking, setRevoking] = useState<Row | null>(null);
  const en = i18n.language === 'en';
  const when = (iso: string) => new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const nameOf = (app: { client_name: string; client_name_en: string }) => (en ? app.client_name_en : app.client_name);
  // What the user approved, in the consent page's terms; a scope this client does not know keeps its name.
  const scopesOf = (scope: string) =>
    new Intl.ListFormat(intlLocale(i18n.language), { type: 'conjunction' }).format(scope.split(' ').filter(Boolean).map((name) => (name in SCOPE_LABELS ? t(SCOPE_LABELS[name as keyof typeof SCOPE_LABELS]) : name)));
  const rows: Row[] | undefined =
    apps.data && signIns.data
      ? [...apps.data.grants.map((app): Row => ({ kind: 'grant', app })), ...signIns.data.sign_ins.map((signIn): Row => ({ kind: 'signIn', signIn }))].sort((a, b) =>
          lastUsedOf(b).localeCompare(lastUsedOf(a)),
        )
      : undefined;
  const error = apps.error ?? signIns.error;

  async function revoke(row: Row) {
    if (row.kind === 'grant') {
      await oauthApi.revoke(row.app.id);
      queryClient.setQueryData<{ grants: AuthorisedApp[] }>(queryKeys.account('oauth-apps'), (current) => current && { grants: current.grants.filter((app) => app.id !== row.app.id) });
    } else {
      await oauthApi.endSignIn(row.signIn.id);
      queryClient.setQueryData<{ sign_ins: AppSignIn[] }>(queryKeys.account('app-sign-ins'), (current) => current && { sign_ins: current.sign_ins.filter((signIn) => signIn.id !== row.signIn.id) });
    }
    toast({ title: t(row.kind === 'grant' ? 'apps.revoked' : 'apps.signInRevoked'), tone: 'success' });
  }

  const confirmTitle = (row: Row) => {
    if (row.kind === 'grant') return t('apps.revokeTitle', { client: nameOf(row.app) });
    const client = nameOf(row.signIn);
    return row.signIn.device_name ? t('apps.revokeSignInTitle', { client, device: row.signIn.device_name }) : t('apps.revokeTitle', { client });
  };

  return (
    <section className="account-card account-apps" aria-labelledby="account-apps-title">
      <AccountCardHead icon={<KeyRoundIcon />} title={t('apps.title')} titleId="account-apps-title" />
      {error && <p className="account-notice account-notice-error">{error.userMessage}</p>}
      {rows && rows.length === 0 && <p className="account-empty">{t('apps.empty')}</p>}
      {rows && rows.length > 0 && (
        <ul className="card-list">
          {rows.map((row) => {
            const clientId = row.kind === 'grant' ? row.app.client_id : row.signIn.client_id;
            return (
              <li key={idOf(row)} className="account-app">
                <span className="account-app-icon" aria-hidden="true">
                  {clientId === 'scriptorium-cli' ? <TerminalIcon size={16} /> : <KeyRoundIcon size={16} />}
                </span>
                {row.kind === 'grant' ? (
                  <div className="account-app-text">
                    <strong>{nameOf(row.app)}</strong>
                    <span>
                      {t('apps.grantedAt', { time: when(row.app.granted_at) })} · {t('apps.lastUsed', { time: when(row.app.last_used_at) })}
                    </span>
                    <span>{t('apps.may', { scopes: scopesOf(row.app.scope) })}</span>
                  </div>
                ) : (
                  <div className="account-app-text">
                    <strong>{row.signIn.device_name ? `${nameOf(row.signIn)} · ${row.signIn.device_name}` : nameOf(row.signIn)}</strong>
                    <span>
                      {t('apps.signedInAt', { time: when(row.signIn.signed_in_at) })} · {t('apps.lastUsed', { time: when(row.signIn.last_used_at) })}
                    </span>
                  </div>
                )}
                <button className="button button-secondary button-small" type="button" onClick={() => setRevoking(row)}>
                  <Trash2Icon size={14} />
                  {t('apps.revoke')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {revoking && (
        <ConfirmDialog
          title={confirmTitle(revoking)}
          text={t(revoking.kind === 'grant' ? 'apps.revokeText' : 'apps.revokeSignInText')}
          confirmLabel={t('apps.revoke')}
          onConfirm={() => revoke(revoking)}
          onClose={() => setRevoking(null)}
        />
      )}
    </section>
  );
}
