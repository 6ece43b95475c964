import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Logo } from '../../components/Logo.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { Sidebar } from './Sidebar.tsx';
import './shell.css';

export function AppShell({ children }: { children: ReactNode }) {
  const [expanded, setExpanded] = useState(true);
  return (
    <div className="shell">
      <Sidebar expanded={expanded} onToggle={() => setExpanded((value) => !value)} />
      <main className="shell-main">{children}</main>
    </div>
  );
}

/** Shared pages are read by people who may have no account: no sidebar, only the brand and the language. */
export function FullScreenLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="fullscreen">
      <header className="fullscreen-bar">
        <Link to="/" className="brand">
          <Logo size={28} />
          <span className="brand-name">{t('app.name')}</span>
        </Link>
        <LanguageSwitch />
      </header>
      <main className="fullscreen-main">{children}</main>
    </div>
  );
}
