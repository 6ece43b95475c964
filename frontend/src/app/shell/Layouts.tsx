import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { SidebarOverlay } from '../../ui/sidebarOverlay.ts';
import { COMPACT_SCREEN, useMediaQuery } from '../../ui/useMediaQuery.ts';
import { Logo } from '../../components/Logo.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { Sidebar } from './Sidebar.tsx';
import './shell.css';

/**
 * The sidebar beside the page; on a phone-sized screen it starts collapsed to its rail and opens over
 * the page (a tap beside it, Escape, or going anywhere from it, closes it), so the page keeps the width.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const compact = useMediaQuery(COMPACT_SCREEN);
  const [expanded, setExpanded] = useState(!compact);
  // Any navigation (another page, a note or session picked in the sidebar) closes it over the page.
  const { key } = useLocation();
  useEffect(() => setExpanded(!compact), [compact]);
  useEffect(() => {
    if (compact) setExpanded(false);
  }, [compact, key]);
  const overlay = compact && expanded;
  useEffect(() => {
    if (!overlay) return;
    const close = (event: KeyboardEvent) => event.key === 'Escape' && setExpanded(false);
    window.addEventListener('keydown', close);
    return () => window.removeEventListener('keydown', close);
  }, [overlay]);
  const closeOverlay = useCallback(() => {
    if (compact) setExpanded(false);
  }, [compact]);
  return (
    <div className={`shell${overlay ? ' shell-overlay' : ''}`}>
      <SidebarOverlay value={closeOverlay}>
        <Sidebar expanded={expanded} onToggle={() => setExpanded((value) => !value)} />
      </SidebarOverlay>
      {overlay && <button type="button" className="sidebar-backdrop" aria-label={t('nav.collapse')} onClick={() => setExpanded(false)} />}
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
