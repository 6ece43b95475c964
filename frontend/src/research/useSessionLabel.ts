import { useTranslation } from 'react-i18next';
import { en } from '../i18n/en.ts';
import { zh } from '../i18n/zh.ts';
import { sessionLabel } from './sessions.ts';

const DEFAULT_NAMES = [zh.session.defaultName, en.session.defaultName];

/** `sessionLabel` in the reader's language. */
export function useSessionLabel(): (session: { title: string | null; name: string }) => string {
  const { t } = useTranslation();
  return (session) => sessionLabel(session, { defaultNames: DEFAULT_NAMES, defaultName: t('session.defaultName'), unnamed: t('sessions.unnamed') });
}
