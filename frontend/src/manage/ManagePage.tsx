import { useTranslation } from 'react-i18next';
import { queryKeys, useApiQuery } from '../api/query.ts';
import { Link, useSearchParams } from 'react-router-dom';
import { adminApi } from './api.ts';
import { AuditReadsTab, ReadModelsTab } from './AuditTabs.tsx';
import { ConnectionsTab } from './ConnectionsTab.tsx';
import { InvitesTab } from './InvitesTab.tsx';
import { FeedbackTab, MailTab, OutboxTab } from './MessagesTabs.tsx';
import { UsageTab } from './UsageTab.tsx';
import { UsersTab } from './UsersTab.tsx';
import '../account/account.css';
import '../ui/ui.css';
import './manage.css';
import { ChartColumnIcon, DatabaseIcon, EyeIcon, HistoryIcon, InboxIcon, LightbulbIcon, LinkIcon, MessageCircleIcon, TicketIcon, UsersIcon, type IconComponent } from '../ui/icons.ts';
import { Tabs } from '../ui/Tabs.tsx';

type Tab = 'users' | 'invites' | 'usage' | 'mail' | 'feedback' | 'outbox' | 'auditReads' | 'readModels' | 'connections';

const TABS: ReadonlyArray<{ id: Tab; icon: IconComponent }> = [
  { id: 'users', icon: UsersIcon },
  { id: 'invites', icon: TicketIcon },
  { id: 'usage', icon: ChartColumnIcon },
  { id: 'mail', icon: MessageCircleIcon },
  { id: 'feedback', icon: LightbulbIcon },
  { id: 'outbox', icon: InboxIcon },
  { id: 'auditReads', icon: HistoryIcon },
  { id: 'readModels', icon: DatabaseIcon },
  { id: 'connections', icon: LinkIcon },
];

/** The admin console. The route is marked admin-only; the server refuses every call to anyone else. */
export default function ManagePage() {
  const { t } = useTranslation('account');
  const [params, setParams] = useSearchParams();
  // The outbox only means something when the server keeps mail instead of sending it (development).
  const outbox = useApiQuery({ queryKey: queryKeys.manage('outbox', 'transport'), queryFn: () => adminApi.outbox(0, 1) });
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
        <div className="manage-head-links">
          <Link to="/audit" className="button button-secondary button-small">
            <EyeIcon size={14} />
            {t('manage.auditLink')}
          </Link>
          <Link to="/admin/dashboard" className="button button-secondary button-small">
            <ChartColumnIcon size={14} />
            {t('dashboard.title')}
          </Link>
        </div>
      </header>
      <Tabs value={active} onChange={(tab) => setParams({ tab }, { replace: true })} label={t('manage.title')} tabs={tabs.map((tab) => ({ value: tab.id, label: t(`manage.tabs.${tab.id}`), icon: <tab.icon size={16} /> }))}>
        <div className="manage-body">
          {active === 'users' && <UsersTab />}
          {active === 'invites' && <InvitesTab />}
          {active === 'usage' && <UsageTab />}
          {active === 'mail' && <MailTab />}
          {active === 'feedback' && <FeedbackTab />}
          {active === 'outbox' && <OutboxTab />}
          {active === 'auditReads' && <AuditReadsTab />}
          {active === 'readModels' && <ReadModelsTab />}
          {active === 'connections' && <ConnectionsTab />}
        </div>
      </Tabs>
    </div>
  );
}
