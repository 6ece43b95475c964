import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { htmlLang, LANGUAGE_STORAGE_KEY, normaliseLanguage, type Language } from './language.ts';
import type { renderRefusal as RenderRefusal } from './refusals.ts';
import type { resources } from './resources.ts';
import { zhResources } from './resources.zh.ts';

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

// Chinese is bundled, so initialisation is synchronous and a Chinese first render is already translated.
void i18next.use(initReactI18next).init({
  resources: { zh: zhResources },
  lng: 'zh',
  fallbackLng: 'zh',
  supportedLngs: ['zh', 'en'],
  initAsync: false,
  // React escapes on render; escaping here too would show server texts with &amp; and the like.
  interpolation: { escapeValue: false },
});

let renderRefusal: typeof RenderRefusal | undefined;

/**
 * English, and the error catalogue its refusals are worded from, are chunks of their own (together
 * about a tenth of the first load), fetched once someone reads in English.
 */
async function loadLanguage(language: Language): Promise<void> {
  if (language === 'zh' || i18next.hasResourceBundle(language, 'translation')) return;
  const [{ enResources }, refusals] = await Promise.all([import('./resources.en.ts'), import('./refusals.ts')]);
  for (const [namespace, bundle] of Object.entries(enResources)) i18next.addResourceBundle(language, namespace, bundle);
  renderRefusal = refusals.renderRefusal;
}

async function show(language: Language): Promise<void> {
  await loadLanguage(language);
  if (typeof document !== 'undefined') {
    document.documentElement.lang = htmlLang(language);
    // The server picks the landing page's placeholder text by it, before any script has run.
    document.cookie = `${LANGUAGE_STORAGE_KEY}=${language}; path=/; max-age=31536000; SameSite=Lax`;
  }
  await i18next.changeLanguage(language);
}

/**
 * Settles once the stored language can be shown: at once for Chinese, after its chunk for English.
 * The page renders after it, so an English reader never sees Chinese first; if the chunk cannot be
 * fetched the page is shown in Chinese.
 */
export const i18nReady: Promise<void> = show(normaliseLanguage(storedLanguage())).catch((error: unknown) => {
  console.warn('stored language could not be loaded; showing Chinese', error);
});

export const i18n = i18next;

export const currentLanguage = (): Language => normaliseLanguage(i18next.language);

/**
 * A refusal code in the reader's language. Chinese readers get the server's text as sent (undefined
 * here): it is the same catalogue's rendering.
 */
export function refusalInReadersLanguage(code: string, params: Record<string, string | number>): string | undefined {
  const language = currentLanguage();
  return language === 'zh' ? undefined : renderRefusal?.(code, params, language);
}

/** Stored only once the language is shown, so a chunk that fails to load leaves the choice as it was. */
export function setLanguage(language: Language): void {
  show(language).then(
    () => localStorage.setItem(LANGUAGE_STORAGE_KEY, language),
    (error: unknown) => console.warn(`language ${language} could not be loaded`, error),
  );
}
