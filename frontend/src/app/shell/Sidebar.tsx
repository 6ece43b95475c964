import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { Logo } from '../../components/Logo.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { isNavEntryActive, navTarget, subPanelFor, type NavEntryId } from './navigation.ts';
import { ResearchSessions, SubPanel } from './SubPanel.tsx';
import { UserStatusButton } from './UserStatus.tsx';
import { ChevronsLeftIcon, ChevronsRightIcon, FileTextIcon, LightbulbIcon, MessageSquareIcon, TerminalIcon, type IconComponent } from '../../ui/icons.ts';

const ENTRIES: ReadonlyArray<{ id: NavEntryId; icon: IconComponent }> = [
  { id: 'conversation', icon: MessageSquareIcon },
  { id: 'notes', icon: FileTextIcon },
  { id: 'cognition', icon: LightbulbIcon },
  { id: 'cliTrajectories', icon: TerminalIcon },
];

export function Sidebar({ expanded, onToggle }: { expanded: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const toggleLabel = t(expanded ? 'nav.collapse' : 'nav.expand');
  return (
    <aside className={`sidebar${expanded ? ' sidebar-expanded' : ''}`}>
      <div className="sidebar-top">
        <Link to="/research" className="brand" aria-label={t('app.name')}>
          <Logo size={32} />
          {expanded && <span className="brand-name">{t('app.name')}</span>}
        </Link>
        <button className="icon-button" type="button" onClick={onToggle} title={toggleLabel} aria-label={toggleLabel} aria-expanded={expanded}>
          {expanded ? <ChevronsLeftIcon size={18} /> : <ChevronsRightIcon size={18} />}
        </button>
      </div>
      <nav className="sidebar-nav" aria-label={t('nav.label')}>
        {ENTRIES.map(({ id, icon: Glyph }) => {
          const active = isNavEntryActive(id, pathname);
          const label = t(`nav.${id}`);
          return (
            <Link
              key={id}
              to={navTarget(id, pathname)}
              className={`nav-entry${active ? ' active' : ''}`}
              aria-current={active ? 'page' : undefined}
              title={expanded ? undefined : label}
              aria-label={expanded ? undefined : label}
            >
              <Glyph size={20} />
              {expanded && <span>{label}</span>}
            </Link>
          );
        })}
      </nav>
      {expanded ? (
        <SubPanel />
      ) : (
        <div className="sidebar-spacer">{subPanelFor(pathname) === 'research' && <ResearchSessions collapsed />}</div>
      )}
      <div className="sidebar-bottom">
        <LanguageSwitch compact={!expanded} />
        <UserStatusButton expanded={expanded} />
      </div>
    </aside>
  );
}
