import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { AccountIcon, type AccountIconName } from '../../account/icons.tsx';
import { adminApi } from './api.ts';
import { InvitesTab } from './InvitesTab.tsx';
import { FeedbackTab, MailTab, OutboxTab } from './MessagesTabs.tsx';
import { useLoad } from './shared.tsx';
import { UsageTab } from './UsageTab.tsx';
import { UsersTab } from './UsersTab.tsx';
import '../../account/account.css';
import './manage.css';

type Tab = 'users' | 'invites' | 'usage' | 'mail' | 'feedback' | 'outbox';

const TABS: ReadonlyArray<{ id: Tab; icon: AccountIconName }> = [
  { id: 'users', icon: 'users' },
  { id: 'invites', icon: 'ticket' },
  { id: 'usage', icon: 'chart' },
  { id: 'mail', icon: 'message' },
  { id: 'feedback', icon: 'bulb' },
  { id: 'outbox', icon: 'inbox' },
];

/** The admin console. The route is marked admin-only; the server refuses every call to anyone else. */
export default function ManagePage() {
  const { t } = useTranslation('account');
  const [params, setParams] = useSearchParams();
  // The outbox only means something when the server keeps mail instead of sending it (development).
  const outbox = useLoad(() => adminApi.outbox(0, 1), 'transport');
  const devMail = outbox.data?.transport === 'outbox';
  const tabs = TABS.filter((tab) => tab.id !== 'outbox' || devMail);
  const requested = params.get('tab');
  const active = tabs.find((tab) => tab.id === requested)?.id ?? 'users';

  return (
    <div className="manage">
      <header className="manage-head">
        <div>
          <h1>{t('manage.title')}</h1>
          <p className="muted">{t('manage.subtitle')}</p>
        </div>
        <Link to="/admin/dashboard" className="button button-secondary button-small">
          <AccountIcon name="chart" size={14} />
          {t('dashboard.title')}
        </Link>
      </header>
      <nav className="manage-tabs" role="tablist" aria-label={t('manage.title')}>
        {tabs.map((tab) => (
          <button key={tab.id} type="button" role="tab" aria-selected={active === tab.id} className={active === tab.id ? 'active' : undefined} onClick={() => setParams({ tab: tab.id }, { replace: true })}>
            <AccountIcon name={tab.icon} size={16} />
            {t(`manage.tabs.${tab.id}`)}
          </button>
        ))}
      </nav>
      <div role="tabpanel" className="manage-body">
        {active === 'users' && <UsersTab />}
        {active === 'invites' && <InvitesTab />}
        {active === 'usage' && <UsageTab />}
        {active === 'mail' && <MailTab />}
        {active === 'feedback' && <FeedbackTab />}
        {active === 'outbox' && <OutboxTab />}
      </div>
    </div>
  );
}
