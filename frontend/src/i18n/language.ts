export type Language = 'zh' | 'en';

export const LANGUAGE_STORAGE_KEY = 'app_language';

/** Only the exact codes zh and en are accepted; anything else (missing, 'zh-CN', 'fr') falls back to zh. */
export function normaliseLanguage(value: unknown): Language {
  return value === 'en' ? 'en' : 'zh';
}

export const htmlLang = (language: Language): string => (language === 'zh' ? 'zh-CN' : 'en');

/** The locale dates and numbers are written in: the page's language, not the browser's. */
export const intlLocale = (language: string): string => htmlLang(normaliseLanguage(language));
