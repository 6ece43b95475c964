import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LightbulbIcon, ListChecksIcon, PenLineIcon, SearchIcon, SparklesIcon, TerminalIcon, type IconComponent } from '../ui/icons.ts';
import './research.css';

const FEATURES: ReadonlyArray<{ key: 'clarify' | 'search' | 'write'; icon: IconComponent }> = [
  { key: 'clarify', icon: ListChecksIcon },
  { key: 'search', icon: SearchIcon },
  { key: 'write', icon: PenLineIcon },
];

const MORE: ReadonlyArray<{ key: 'writing' | 'agents' | 'cli'; icon: IconComponent; to: string }> = [
  { key: 'writing', icon: PenLineIcon, to: '/ai-first/writing-agent' },
  { key: 'agents', icon: SparklesIcon, to: '/remote' },
  { key: 'cli', icon: TerminalIcon, to: '/cli' },
];

/** The welcome guide panel of the home-welcome preset, with the ways into the other tools. */
export function WelcomeGuide() {
  const { t } = useTranslation();
  return (
    <div className="welcome-guide">
      <div className="research-hero">
        <span className="chip">
          <LightbulbIcon size={14} />
          {t('research.eyebrow')}
        </span>
        <h1>{t('research.title')}</h1>
        <p className="research-description">{t('research.description')}</p>
      </div>
      <ul className="feature-list">
        {FEATURES.map(({ key, icon: Glyph }) => (
          <li key={key} className="feature">
            <span className="feature-icon">
              <Glyph size={18} />
            </span>
            <div>
              <h2>{t(`research.features.${key}.title`)}</h2>
              <p>{t(`research.features.${key}.text`)}</p>
            </div>
          </li>
        ))}
      </ul>
      <nav className="welcome-more" aria-label={t('research.more.label')}>
        {MORE.map(({ key, icon: Glyph, to }) => (
          <Link key={key} to={to}>
            <Glyph size={14} />
            {t(`research.more.${key}`)}
          </Link>
        ))}
      </nav>
    </div>
  );
}
