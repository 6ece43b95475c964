import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Messages } from '../i18n/zh.ts';
import { PageState } from './PageState.tsx';
import { ArrowRightIcon, HourglassIcon } from '../ui/icons.ts';

export type ScreenName = keyof Messages['screens'];

/** What an unbuilt screen shows: its own name and an honest "coming", never a fake page. */
export function ComingSoon({ screen }: { screen: ScreenName }) {
  const { t } = useTranslation();
  const name = t(`screens.${screen}`);
  return (
    <PageState
      icon={HourglassIcon}
      badge={t('comingSoon.badge')}
      title={name}
      actions={
        <Link className="button button-primary" to="/research">
          {t('comingSoon.back')}
          <ArrowRightIcon size={16} />
        </Link>
      }
    >
      <p>{t('comingSoon.text', { name })}</p>
    </PageState>
  );
}
