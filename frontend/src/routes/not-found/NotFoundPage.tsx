import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { PageState } from '../../components/PageState.tsx';
import { CompassIcon } from '../../ui/icons.ts';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <PageState
      icon={CompassIcon}
      badge="404"
      title={t('errorPage.notFoundTitle')}
      actions={
        <Link className="button button-primary" to="/research">
          {t('errorPage.home')}
        </Link>
      }
    >
      <p>{t('errorPage.notFoundText', { path: pathname })}</p>
    </PageState>
  );
}
