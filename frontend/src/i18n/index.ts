import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { htmlLang, LANGUAGE_STORAGE_KEY, normaliseLanguage, type Language } from './language.ts';
import { resources } from './resources.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: (typeof resources)['zh'];
  }
}

/** The stored choice; none where storage is unavailable (a locked-down browser, or the machines' tests in Node). */
function storedLanguage(): string | null {
  try {
    return globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

const initial = normaliseLanguage(storedLanguage());

// Resources are bundled, so initialisation is synchronous and the first render is already translated.
void i18next.use(initReactI18next).init({
  resources,
  lng: initial,
  fallbackLng: 'zh',
  supportedLngs: ['zh', 'en'],
  initAsync: false,
  // React escapes on render; escaping here too would show server texts with &amp; and the like.
  interpolation: { escapeValue: false },
});
if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(initial);

export const i18n = i18next;

export const currentLanguage = (): Language => normaliseLanguage(i18next.language);

export function setLanguage(language: Language): void {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  document.documentElement.lang = htmlLang(language);
  void i18next.changeLanguage(language);
}
