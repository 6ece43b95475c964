import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageState } from '../../components/PageState.tsx';
import { CircleAlertIcon, RefreshCwIcon } from '../../ui/icons.ts';

export default function ErrorPage() {
  const { t } = useTranslation();
  return (
    <PageState
      icon={CircleAlertIcon}
      tone="danger"
      title={t('errorPage.title')}
      actions={
        <>
          <button className="button button-primary" type="button" onClick={() => window.location.reload()}>
            <RefreshCwIcon size={16} />
            {t('errorPage.reload')}
          </button>
          <Link className="button button-secondary" to="/research">
            {t('errorPage.home')}
          </Link>
        </>
      }
    >
      <p>{t('errorPage.text')}</p>
    </PageState>
  );
}
