import { useTranslation } from 'react-i18next';
import { intlLocale } from '../i18n/language.ts';

/** Dates in the collaboration screens, in the page's language. */
export function useCollabTime(): Intl.DateTimeFormat {
  const { i18n } = useTranslation();
  return new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'short', timeStyle: 'short' });
}
