import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useAuth } from '../../app/auth/index.ts';
import { Logo } from '../../components/Logo.tsx';
import { ArrowRightIcon } from '../../ui/icons.ts';
import '../../components/pageState.css';

export default function WelcomePage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  return (
    <section className="page-state">
      <Logo size={56} />
      <h1>{t('welcome.title')}</h1>
      <div className="page-state-text">
        <p>{t('welcome.text')}</p>
      </div>
      <div className="page-state-actions">
        <Link className="button button-primary" to="/research">
          {t('welcome.start')}
          <ArrowRightIcon size={16} />
        </Link>
        {!user && (
          <>
            <Link className="button button-secondary" to="/login">
              {t('welcome.signIn')}
            </Link>
            <Link className="button button-secondary" to="/register">
              {t('welcome.register')}
            </Link>
          </>
        )}
      </div>
    </section>
  );
}
