import { useTranslation } from 'react-i18next';
import { setLanguage } from '../../i18n/index.ts';
import { normaliseLanguage, type Language } from '../../i18n/language.ts';
import { GlobeIcon } from '../../ui/icons.ts';

const LANGUAGES: ReadonlyArray<Language> = ['zh', 'en'];

/** Both languages side by side; collapsed, one button that switches to the other language. */
export function LanguageSwitch({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = normaliseLanguage(i18n.language);
  const other: Language = current === 'zh' ? 'en' : 'zh';

  if (compact) {
    return (
      <button className="icon-button language-compact" type="button" onClick={() => setLanguage(other)} title={t('language.switchTo')} aria-label={t('language.switchTo')}>
        {t(`language.short.${other}`)}
      </button>
    );
  }
  return (
    <div className="language-switch" role="group" aria-label={t('language.label')}>
      <GlobeIcon size={16} />
      {LANGUAGES.map((language) => (
        <button key={language} type="button" className={language === current ? 'active' : undefined} aria-pressed={language === current} onClick={() => setLanguage(language)}>
          {t(`language.${language}`)}
        </button>
      ))}
    </div>
  );
}
