import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useRouteError } from 'react-router-dom';
import { PageState } from '../components/PageState.tsx';
import { isFullScreenPath } from './guard.ts';
import { CircleAlertIcon, RefreshCwIcon } from '../ui/icons.ts';

// Vite and browsers word a failed dynamic import differently; all of them name the module fetch.
const isChunkLoadError = (error: unknown) =>
  error instanceof Error && /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(error.message);

/** Rendered in place of a screen that threw; the shell around it keeps working. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const { pathname } = useLocation();

  // Spec: a shared route that fails to load redirects to /.
  if (isFullScreenPath(pathname)) return <Navigate to="/" replace />;

  const chunk = isChunkLoadError(error);
  return (
    <PageState
      icon={CircleAlertIcon}
      tone="danger"
      title={t(chunk ? 'errorPage.loadFailed' : 'errorPage.title')}
      actions={
        <>
          <button className="button button-primary" type="button" onClick={() => window.location.reload()}>
            <RefreshCwIcon size={16} />
            {t('errorPage.reload')}
          </button>
          <Link className="button button-secondary" to="/research" reloadDocument>
            {t('errorPage.home')}
          </Link>
        </>
      }
    >
      <p>{t(chunk ? 'errorPage.loadFailedText' : 'errorPage.text')}</p>
    </PageState>
  );
}
