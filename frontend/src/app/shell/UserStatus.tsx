import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import type { ClientUser } from '../../api/user.ts';
import { Icon, Logo } from '../../components/Icon.tsx';
import { auth, useAuth } from '../auth/index.ts';
import { fullPath } from '../guard.ts';
import { initials } from './navigation.ts';

/** The button at the foot of the sidebar and the status dialog it opens. */
export function UserStatusButton({ expanded }: { expanded: boolean }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  const label = user ? user.name : t('user.signInPrompt');
  return (
    <>
      <button className="user-button" type="button" onClick={() => setOpen(true)} title={expanded ? undefined : label} aria-label={expanded ? undefined : label} aria-haspopup="dialog">
        {user ? (
          <span className="avatar">{initials(user.name)}</span>
        ) : (
          <span className="avatar avatar-empty">
            <Icon name="user" size={18} />
          </span>
        )}
        {expanded && (
          <span className="user-button-text">
            <span className="user-button-name">{label}</span>
            {user && <span className="user-button-sub">{user.email}</span>}
          </span>
        )}
      </button>
      {open && <UserStatusDialog user={user} onClose={() => setOpen(false)} />}
    </>
  );
}

function UserStatusDialog({ user, onClose }: { user: ClientUser | null; onClose: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);

  // A modal <dialog> brings focus trapping, Escape and the backdrop for free.
  useEffect(() => {
    const dialog = ref.current;
    dialog?.showModal();
    return () => dialog?.close();
  }, []);

  return (
    <dialog
      ref={ref}
      className="dialog user-dialog"
      aria-label={t('user.account')}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <button className="icon-button dialog-close" type="button" onClick={onClose} aria-label={t('user.close')} title={t('user.close')}>
        <Icon name="close" size={18} />
      </button>
      {user ? <SignedIn user={user} onClose={onClose} /> : <SignedOut onClose={onClose} />}
    </dialog>
  );
}

function SignedIn({ user, onClose }: { user: ClientUser; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const since = new Date(user.created_at);
  return (
    <div className="user-dialog-body">
      <div className="user-profile">
        <span className="avatar avatar-large">{initials(user.name)}</span>
        <div>
          <h2>{user.name}</h2>
          <p className="muted">
            <Icon name="mail" size={14} />
            {user.email}
          </p>
        </div>
      </div>
      <div className="badges">
        <span className={`badge ${user.email_verified ? 'badge-success' : 'badge-muted'}`}>
          {user.email_verified && <Icon name="check" size={12} />}
          {t(user.email_verified ? 'user.verified' : 'user.unverified')}
        </span>
        {user.is_admin && (
          <span className="badge badge-primary">
            <Icon name="shield" size={12} />
            {t('user.admin')}
          </span>
        )}
      </div>
      {!Number.isNaN(since.getTime()) && (
        <dl className="facts">
          <dt>{t('user.memberSince')}</dt>
          <dd>{new Intl.DateTimeFormat(i18n.language === 'en' ? 'en' : 'zh-CN', { dateStyle: 'long' }).format(since)}</dd>
        </dl>
      )}
      <div className="dialog-actions">
        <button
          className="button button-secondary"
          type="button"
          onClick={() => {
            auth.logout();
            onClose();
          }}
        >
          <Icon name="logOut" size={16} />
          {t('user.logout')}
        </button>
      </div>
    </div>
  );
}

function SignedOut({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const location = useLocation();
  const redirect = encodeURIComponent(fullPath(location));
  return (
    <div className="user-dialog-body user-dialog-welcome">
      <Logo size={44} />
      <h2>{t('user.welcomeTitle')}</h2>
      <p className="muted">{t('user.welcomeText')}</p>
      <div className="dialog-actions dialog-actions-center">
        <Link className="button button-primary" to={`/login?redirect=${redirect}`} onClick={onClose}>
          <Icon name="logIn" size={16} />
          {t('user.signIn')}
        </Link>
        <Link className="button button-secondary" to={`/register?redirect=${redirect}`} onClick={onClose}>
          {t('user.register')}
        </Link>
      </div>
    </div>
  );
}
