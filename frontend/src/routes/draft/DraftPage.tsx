import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { auth, useAuth } from '../../app/auth/index.ts';
import { PageState } from '../../components/PageState.tsx';
import { ArrowRightIcon, CheckIcon, FileTextIcon, LockIcon, LogOutIcon } from '../../ui/icons.ts';

/**
 * The spec's guard sends inactive accounts and signed-in users who open login or register here, but
 * never shows the page itself; it is a landing that says why the user is here and where to go next.
 */
export default function DraftPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useAuth();

  if (user && !user.is_active) {
    return (
      <PageState
        icon={LockIcon}
        tone="danger"
        title={t('draft.inactiveTitle')}
        actions={
          <button className="button button-secondary" type="button" onClick={() => auth.send({ type: 'auth.logout' })}>
            <LogOutIcon size={16} />
            {t('user.logout')}
          </button>
        }
      >
        <p>{t('draft.inactiveText')}</p>
      </PageState>
    );
  }

  if (user) {
    return (
      <PageState
        icon={CheckIcon}
        title={t('draft.signedInTitle')}
        actions={
          <>
            <Link className="button button-primary" to="/research">
              {t('draft.toResearch')}
              <ArrowRightIcon size={16} />
            </Link>
            <button
              className="button button-secondary"
              type="button"
              onClick={() => {
                auth.send({ type: 'auth.logout' });
                navigate('/login');
              }}
            >
              {t('draft.switchAccount')}
            </button>
          </>
        }
      >
        <p>{t('draft.signedInText', { name: user.name })}</p>
      </PageState>
    );
  }

  return (
    <PageState
      icon={FileTextIcon}
      title={t('draft.sharedTitle')}
      actions={
        <>
          <Link className="button button-primary" to="/login">
            {t('draft.signIn')}
          </Link>
          <Link className="button button-secondary" to="/research">
            {t('draft.toResearch')}
          </Link>
        </>
      }
    >
      <p>{t('draft.sharedText')}</p>
    </PageState>
  );
}
