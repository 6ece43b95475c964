import { useTranslation } from 'react-i18next';
import { DEFAULT_SESSION_NAMES } from '../i18n/sessionNames.ts';
import { sessionLabel } from './sessions.ts';

const DEFAULT_NAMES = Object.values(DEFAULT_SESSION_NAMES);

/** `sessionLabel` in the reader's language. */
export function useSessionLabel(): (session: { title: string | null; name: string }) => string {
  const { t } = useTranslation();
  return (session) => sessionLabel(session, { defaultNames: DEFAULT_NAMES, defaultName: t('session.defaultName'), unnamed: t('sessions.unnamed') });
}
