import { useTranslation } from 'react-i18next';

/** Dates in the collaboration screens, in the page's language. */
export function useCollabTime(): Intl.DateTimeFormat {
  const { i18n } = useTranslation();
  return new Intl.DateTimeFormat(i18n.language === 'en' ? 'en' : 'zh-CN', { dateStyle: 'short', timeStyle: 'short' });
}
