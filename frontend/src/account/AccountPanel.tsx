import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ClientUser } from '../api/user.ts';
import { auth } from '../app/auth/index.ts';
import { initials } from '../app/shell/navigation.ts';
import { Icon } from '../components/Icon.tsx';
import { accountApi } from './api.ts';
import { EmailVerificationModal } from './EmailVerificationModal.tsx';
import { FeedbackSection } from './FeedbackSection.tsx';
import { AccountIcon } from './icons.tsx';
import { QuotaCard, UsageStats } from './QuotaCard.tsx';
import { groupOf } from './quota.ts';
import { TasksPanel } from './TasksPanel.tsx';
import { useAccountData } from './useAccountData.ts';
import './account.css';

/** The signed-in body of the user status dialog (spec 02 §2), loaded when the dialog first opens. */
export default function AccountPanel({ user, onClose }: { user: ClientUser; onClose: () => void }) {
  const { t, i18n } = useTranslation('account');
  const { data, reloadTasks, markVerified } = useAccountData();
  const [verifying, setVerifying] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const me = data.me ?? user;
  const level = data.tokenInfo.status === 'ready' ? data.tokenInfo.value.user_level : null;
  const group = groupOf(level ?? (me.is_admin ? 'admin' : null));

  async function logout() {
    setLeaving(true);
    // The server revokes the token; if it cannot be reached the browser still forgets it.
    await accountApi.logout().catch(() => undefined);
    auth.logout();
    onClose();
  }

  return (
    <div className="account">
      <header className="account-head">
        <span className="avatar account-avatar">{initials(me.name)}</span>
        <div className="account-identity">
          <div className="account-name-row">
            <h2>{me.name}</h2>
            <span className={`account-group account-group-${group}`}>{t(`group.${group}`)}</span>
          </div>
          <div className="account-email-row">
            <Icon name="mail" size={14} />
            <span className="account-email">{me.email}</span>
            {me.email_verified ? (
              <span className="badge badge-success">
                <Icon name="check" size={12} />
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
          {data.coins && (
            <span className="account-coins" title={t('profile.coins')}>
              <AccountIcon name="coin" size={16} />
              <strong>{new Intl.NumberFormat(i18n.language === 'en' ? 'en' : 'zh-CN').format(data.coins.balance)}</strong>
              <span>{t('profile.coins')}</span>
            </span>
          )}
          {me.is_admin && (
            <Link className="button button-secondary button-small" to="/manage" onClick={onClose}>
              <Icon name="shield" size={14} />
              {t('profile.manage')}
            </Link>
          )}
          <button className="button button-secondary button-small" type="button" onClick={logout} disabled={leaving}>
            <Icon name="logOut" size={14} />
            {t('profile.logout')}
          </button>
        </div>
      </header>

      <div className="account-grid">
        <div className="account-column">
          <QuotaCard info={data.tokenInfo} />
          <UsageStats info={data.tokenInfo} />
        </div>
        <TasksPanel tasks={data.tasks} onClaimed={reloadTasks} />
      </div>

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
