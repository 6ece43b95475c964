import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { queryClient, queryKeys, useApiQuery } from '../api/query.ts';
import { toClientUser, type ClientUser, type MeDto } from '../api/user.ts';
import { auth } from '../app/auth/index.ts';
import { initials } from '../app/shell/navigation.ts';
import { accountApi } from './api.ts';
import { AuthorisedApps } from './AuthorisedApps.tsx';
import { EmailVerificationModal } from './EmailVerificationModal.tsx';
import { FeedbackSection } from './FeedbackSection.tsx';
import { PasswordSection } from './PasswordSection.tsx';
import { QuotaCard, UsageStats } from './QuotaCard.tsx';
import { groupOf } from './quota.ts';
import { TasksPanel } from '../tasks/TasksPanel.tsx';
import { useCoinBalance } from '../tasks/queries.ts';
import './account.css';
import { CheckIcon, CoinsIcon, EyeIcon, LogOutIcon, MailIcon, ShieldIcon } from '../ui/icons.ts';
import { intlLocale } from '../i18n/language.ts';

const WHILE_OPEN = { staleTime: 0, gcTime: 0 } as const;

/** The signed-in body of the user status dialog (spec 02 §2), loaded when the dialog first opens. */
export default function AccountPanel({ user, onClose }: { user: ClientUser; onClose: () => void }) {
  const { t, i18n } = useTranslation('account');
  // A fresh /auth/me: the auth store caches the user, and the verified flag may have changed since.
  // Each part fails on its own, so one outage leaves the rest readable.
  // Read afresh each time the dialog opens (used elsewhere meanwhile), kept only while it is open, as the tasks and coins are.
  const fresh = useApiQuery({ queryKey: queryKeys.account('me'), queryFn: accountApi.me, ...WHILE_OPEN });
  const tokenInfo = useApiQuery({ queryKey: queryKeys.account('token-info'), queryFn: accountApi.tokenInfo, ...WHILE_OPEN });
  const coins = useCoinBalance();
  // Stable: the verification modal calls it from an effect that depends on it.
  const markVerified = useCallback(() => queryClient.setQueryData<MeDto>(queryKeys.account('me'), (current) => current && { ...current, email_verified: true }), []);
  const [verifying, setVerifying] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  const me = fresh.data ? toClientUser(fresh.data) : user;
  const level = tokenInfo.data?.user_level ?? null;
  const group = groupOf(level ?? (me.is_admin ? 'admin' : null));

  async function logout() {
    setLeaving(true);
    // The server revokes the token; if it cannot be reached the browser still forgets it.
    await accountApi.logout().catch(() => undefined);
    auth.send({ type: 'auth.logout' });
    // What the address names (a session, a note) was the user's: the next person at this browser starts clean.
    if (location.search) navigate(location.pathname, { replace: true });
    onClose();
  }

  return (
    <div className="account">
      <header className="account-head">
        <span className="avatar account-avatar">{initials(me.nickname)}</span>
        <div className="account-identity">
          <div className="account-name-row">
            <h2>{me.nickname}</h2>
            {me.nickname !== me.username && <span className="muted small">@{me.username}</span>}
            <span className={`account-group account-group-${group}`}>{t(`group.${group}`)}</span>
          </div>
          <div className="account-email-row">
            <MailIcon size={14} />
            <span className="account-email">{me.email}</span>
            {me.email_verified ? (
              <span className="badge badge-success">
                <CheckIcon size={12} />
                {t('profile.verified')}
              </span>
            ) : (
              <>
                <span className="badge badge-muted">{t('profile.unverified')}</span>
                <button className="link-button" type="button" onClick={() => setVerifying(true)}>
                  {t('profile.verifyEmail')}
                </button>
              </>
            )}
          </div>
        </div>
        <div className="account-head-actions">
          {coins.data && (
            <span className="account-coins" title={t('profile.coins')}>
              <CoinsIcon size={16} />
              <strong>{new Intl.NumberFormat(intlLocale(i18n.language)).format(coins.data.balance)}</strong>
              <span>{t('profile.coins')}</span>
            </span>
          )}
          {(me.is_admin || me.is_auditor) && (
            <Link className="button button-secondary button-small" to="/audit" onClick={onClose}>
              <EyeIcon size={14} />
              {t('audit.title')}
            </Link>
          )}
          {me.is_admin && (
            <Link className="button button-secondary button-small" to="/manage" onClick={onClose}>
              <ShieldIcon size={14} />
              {t('profile.manage')}
            </Link>
          )}
          <button className="button button-secondary button-small" type="button" onClick={logout} disabled={leaving}>
            <LogOutIcon size={14} />
            {t('profile.logout')}
          </button>
        </div>
      </header>

      <div className="account-grid">
        <div className="account-column">
          <QuotaCard info={tokenInfo} />
          <UsageStats info={tokenInfo} />
        </div>
        <TasksPanel />
      </div>

      <PasswordSection />

      <AuthorisedApps />

      <FeedbackSection />

      {verifying && (
        <EmailVerificationModal
          email={me.email}
          onVerified={markVerified}
          onClose={() => setVerifying(false)}
        />
      )}
    </div>
  );
}
