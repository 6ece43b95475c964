import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from '../../components/Icon.tsx';

const FEATURES: ReadonlyArray<{ key: 'clarify' | 'search' | 'write'; icon: IconName }> = [
  { key: 'clarify', icon: 'plan' },
  { key: 'search', icon: 'search' },
  { key: 'write', icon: 'pen' },
];

/** The research home until the conversation view replaces it: it says plainly that asking comes later. */
export default function ResearchPage() {
  const { t } = useTranslation();
  return (
    <div className="research-home">
      <div className="research-hero">
        <span className="chip">
          <Icon name="cognition" size={14} />
          {t('research.eyebrow')}
        </span>
        <h1>{t('research.title')}</h1>
        <p className="research-description">{t('research.description')}</p>
      </div>
      <div className="composer composer-disabled" aria-disabled="true">
        <textarea placeholder={t('research.placeholder')} disabled rows={3} aria-label={t('research.placeholder')} />
        <div className="composer-footer">
          <span className="composer-note">
            <Icon name="info" size={16} />
            {t('research.unavailable')}
          </span>
          <button className="button button-primary" type="button" disabled>
            <Icon name="send" size={16} />
            {t('research.send')}
          </button>
        </div>
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
    </div>
  );
}
