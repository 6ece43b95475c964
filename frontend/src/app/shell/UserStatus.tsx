import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import type { ClientUser } from '../../api/user.ts';
import { Logo } from '../../components/Logo.tsx';
import { PageLoading } from '../../components/PageState.tsx';
import { useAuth } from '../auth/index.ts';
import { fullPath } from '../guard.ts';
import { initials } from './navigation.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { LogInIcon, UserIcon } from '../../ui/icons.ts';

// The signed-in panel (quota, tasks, feedback, verification) is its own chunk: most visits never open it.
const AccountPanel = lazy(() => import('../../account/AccountPanel.tsx'));

/** The button at the foot of the sidebar and the status dialog it opens. */
export function UserStatusButton({ expanded }: { expanded: boolean }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  const label = user ? user.nickname : t('user.signInPrompt');
  return (
    <>
      <button className="user-button" type="button" onClick={() => setOpen(true)} title={expanded ? undefined : label} aria-label={expanded ? undefined : label} aria-haspopup="dialog">
        {user ? (
          <span className="avatar">{initials(user.nickname)}</span>
        ) : (
          <span className="avatar avatar-empty">
            <UserIcon size={18} />
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
  const { t } = useTranslation('account');
  return (
    <Dialog title={t('dialog.label')} hideTitle onClose={onClose} className={`user-dialog${user ? ' user-dialog-wide' : ''}`}>
      {user ? (
        <Suspense fallback={<PageLoading />}>
          <AccountPanel user={user} onClose={onClose} />
        </Suspense>
      ) : (
        <SignedOut onClose={onClose} />
      )}
    </Dialog>
  );
}

function SignedOut({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('account');
  const location = useLocation();
  const redirect = encodeURIComponent(fullPath(location));
  return (
    <div className="user-dialog-body user-dialog-welcome">
      <Logo size={44} />
      <h2>{t('welcome.title')}</h2>
      <p className="muted">{t('welcome.text')}</p>
      <div className="dialog-actions dialog-actions-center">
        <Link className="button button-primary" to={`/login?redirect=${redirect}`} onClick={onClose}>
          <LogInIcon size={16} />
          {t('welcome.login')}
        </Link>
      </div>
    </div>
  );
}
