import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { Icon } from '../../components/Icon.tsx';
import { useAuth } from '../auth/index.ts';
import { fullPath } from '../guard.ts';
import { subPanelFor } from './navigation.ts';

/**
 * The per-route area of the expanded sidebar. Each section's real panel (session list, note tree,
 * cognition search, trajectory summary) arrives with its feature; until then it says so.
 */
export function SubPanel() {
  const { t } = useTranslation();
  const location = useLocation();
  const { user } = useAuth();
  const kind = subPanelFor(location.pathname);
  if (kind === null) return <div className="sub-panel" />;
  const needsLogin = kind === 'research' && !user;
  return (
    <section className="sub-panel" aria-label={t(`subPanel.${kind}.title`)}>
      <h2 className="sub-panel-title">{t(`subPanel.${kind}.title`)}</h2>
      {needsLogin ? (
        <div className="sub-panel-note">
          <Icon name="lock" size={16} />
          <div>
            <p>{t('subPanel.research.signInToView')}</p>
            <Link className="button button-primary button-small" to={`/login?redirect=${encodeURIComponent(fullPath(location))}`}>
              {t('user.signIn')}
            </Link>
          </div>
        </div>
      ) : (
        <div className="sub-panel-note">
          <Icon name="hourglass" size={16} />
          <p>{t(`subPanel.${kind}.arriving`)}</p>
        </div>
      )}
    </section>
  );
}
