import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { accountEn } from './account.en.ts';
import { accountZh } from './account.zh.ts';
import { agentsEn } from './agents.en.ts';
import { agentsZh } from './agents.zh.ts';
import { cliEn } from './cli.en.ts';
import { cliZh } from './cli.zh.ts';
import { cognitionEn } from './cognition.en.ts';
import { cognitionZh } from './cognition.zh.ts';
import { en } from './en.ts';
import { engineerEn } from './engineer.en.ts';
import { engineerZh } from './engineer.zh.ts';
import { htmlLang, LANGUAGE_STORAGE_KEY, normaliseLanguage, type Language } from './language.ts';
import { notesEn } from './notes.en.ts';
import { notesZh } from './notes.zh.ts';
import { refusalResources } from './refusals.ts';
import { writingEn } from './writing.en.ts';
import { writingZh } from './writing.zh.ts';
import { zh } from './zh.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zh; account: typeof accountZh; cognition: typeof cognitionZh; writing: typeof writingZh; notes: typeof notesZh; cli: typeof cliZh; agents: typeof agentsZh; engineer: typeof engineerZh; refusals: ReturnType<typeof refusalResources> };
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
  resources: { zh: { translation: zh, account: accountZh, cognition: cognitionZh, writing: writingZh, notes: notesZh, cli: cliZh, agents: agentsZh, engineer: engineerZh, refusals: refusalResources('zh') }, en: { translation: en, account: accountEn, cognition: cognitionEn, writing: writingEn, notes: notesEn, cli: cliEn, agents: agentsEn, engineer: engineerEn, refusals: refusalResources('en') } },
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
