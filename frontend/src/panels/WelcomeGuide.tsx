import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Icon, type IconName } from '../components/Icon.tsx';

const FEATURES: ReadonlyArray<{ key: 'clarify' | 'search' | 'write'; icon: IconName }> = [
  { key: 'clarify', icon: 'plan' },
  { key: 'search', icon: 'search' },
  { key: 'write', icon: 'pen' },
];

const MORE: ReadonlyArray<{ key: 'writing' | 'agents' | 'cli'; icon: IconName; to: string }> = [
  { key: 'writing', icon: 'pen', to: '/ai-first/writing-agent' },
  { key: 'agents', icon: 'sparkles', to: '/remote' },
  { key: 'cli', icon: 'terminal', to: '/cli' },
];

/** The welcome guide panel of the home-welcome preset, with the ways into the other tools. */
export function WelcomeGuide() {
  const { t } = useTranslation();
  return (
    <div className="welcome-guide">
      <div className="research-hero">
        <span className="chip">
          <Icon name="cognition" size={14} />
          {t('research.eyebrow')}
        </span>
        <h1>{t('research.title')}</h1>
        <p className="research-description">{t('research.description')}</p>
      </div>
      <ul className="feature-list">
        {FEATURES.map(({ key, icon }) => (
          <li key={key} className="feature">
            <span className="feature-icon">
              <Icon name={icon} size={18} />
            </span>
            <div>
              <h2>{t(`research.features.${key}.title`)}</h2>
              <p>{t(`research.features.${key}.text`)}</p>
            </div>
          </li>
        ))}
      </ul>
      <nav className="welcome-more" aria-label={t('research.more.label')}>
        {MORE.map(({ key, icon, to }) => (
          <Link key={key} to={to}>
            <Icon name={icon} size={14} />
            {t(`research.more.${key}`)}
          </Link>
        ))}
      </nav>
    </div>
  );
}
