import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router-dom';
import { Link2OffIcon, type IconComponent } from '../ui/icons.ts';
import { useToast } from '../ui/Toast.tsx';
import './pageState.css';

/** The one layout for every full-page message: coming soon, not found, forbidden, failures. */
export function PageState({ icon: Glyph, badge, title, children, actions, tone = 'primary' }: { icon: IconComponent; badge?: string; title: string; children?: ReactNode; actions?: ReactNode; tone?: 'primary' | 'danger' }) {
  return (
    <section className="page-state">
      <div className={`page-state-icon tone-${tone}`}>
        <Glyph size={30} />
      </div>
      {badge && <span className="chip">{badge}</span>}
      <h1>{title}</h1>
      {children && <div className="page-state-text">{children}</div>}
      {actions && <div className="page-state-actions">{actions}</div>}
    </section>
  );
}

export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="page-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{t('app.loading')}</span>
    </div>
  );
}

/**
 * A shared route whose link has ended (revoked, expired, never there) says so where the link
 * pointed, with the way home: the page did load, and its answer is that the share is over. A route
 * that fails to load (the server or the network failed) redirects to / (spec 01, navigation guard),
 * and a toast says why with the status (spec 01 §8: 获取分享内容失败 plus the status).
 */
export function ShareGone({ status, title, text }: { status: number; title?: string; text?: string }) {
  const { t } = useTranslation();
  const ended = status === 404 || status === 410 || status === 422;
  if (ended) {
    return (
      <PageState
        icon={Link2OffIcon}
        title={title ?? t('shared.missingTitle')}
        actions={
          <Link className="button button-primary" to="/">
            {t('errorPage.home')}
          </Link>
        }
      >
        <p>{text ?? t('shared.missingText')}</p>
      </PageState>
    );
  }
  return <ShareUnreadable status={status} />;
}

function ShareUnreadable({ status }: { status: number }) {
  const { t } = useTranslation();
  const toast = useToast();
  const told = useRef(false);
  useEffect(() => {
    if (told.current) return;
    told.current = true;
    toast({ title: `${t('shared.loadFailed')} ${status || ''}`.trim(), tone: 'error' });
  }, [status, t, toast]);
  return <Navigate to="/" replace />;
}
