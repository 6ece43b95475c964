import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { Icon } from '../../components/Icon.tsx';
import { SessionSidebar } from '../../panels/SessionSidebar.tsx';
import { subPanelFor } from './navigation.ts';

/**
 * The per-route area of the expanded sidebar: the session sidebar on research; the other sections'
 * panels (note tree, cognition search, trajectory summary) arrive with their features and say so.
 */
export function SubPanel() {
  const { t } = useTranslation();
  const location = useLocation();
  const kind = subPanelFor(location.pathname);
  if (kind === null) return <div className="sub-panel" />;
  return (
    <section className="sub-panel" aria-label={t(`subPanel.${kind}.title`)}>
      <h2 className="sub-panel-title">{t(`subPanel.${kind}.title`)}</h2>
      {kind === 'research' ? (
        <SessionSidebar collapsed={false} />
      ) : (
        <div className="sub-panel-note">
          <Icon name="hourglass" size={16} />
          <p>{t(`subPanel.${kind}.arriving`)}</p>
        </div>
      )}
    </section>
  );
}
