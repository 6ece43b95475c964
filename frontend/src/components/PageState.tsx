import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ArrowRightIcon, LinkIcon, type IconComponent } from '../ui/icons.ts';
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

/** What a public link shows when its share is gone (revoked, expired or never there). */
export function ShareGone({ title, text, action }: { title: string; text: string; action: string }) {
  return (
    <PageState
      icon={LinkIcon}
      tone="danger"
      title={title}
      actions={
        <Link className="button button-primary" to="/">
          <ArrowRightIcon size={16} />
          {action}
        </Link>
      }
    >
      <p>{text}</p>
    </PageState>
  );
}
