import { useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { ExtractionDialog } from './ExtractionDialog.tsx';
import { useSignInFirst } from './useSignInFirst.ts';
import { synthesisMode, useSynthesisOn } from './synthesisMode.ts';
import { SearchField } from './SearchField.tsx';
import { UrlExtractDialog } from './UrlExtractDialog.tsx';
import { useCognitionExtraction } from './useCognitionExtraction.ts';
import { GlobeIcon, LayersIcon, LibraryIcon, LogInIcon } from '../ui/icons.ts';
import './cognition.css';

const PLATFORM_PATH = '/cognition';

/** The cognition section's sub-panel (spec "Cognition side panel"): search, URL extract, synthesis, library. */
export function CognitionSidePanel() {
  const { t } = useTranslation('cognition');
  const { signedIn, requireSignIn } = useSignInFirst();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const onPlatform = pathname === PLATFORM_PATH;
  const synthesizing = useSynthesisOn();
  const extraction = useCognitionExtraction();
  const [askingUrl, setAskingUrl] = useState(false);
  const libraryHint = useId();

  useEffect(() => {
    // Synthesis is a way of picking cards on the platform; it does not follow the reader elsewhere.
    if (!onPlatform) synthesisMode.send({ type: 'synthesis.stop' });
  }, [onPlatform]);

  return (
    <div className="cog-panel">
      <PlatformSearch />
      <div className="cog-panel-actions">
        <PanelAction icon={<GlobeIcon size={17} />} label={t('panel.urlExtract')} hint={t('panel.urlExtractHint')} onClick={() => requireSignIn(() => setAskingUrl(true))} />
        <PanelAction
          icon={<LayersIcon size={17} />}
          label={t(synthesizing ? 'panel.cancelSynthesis' : 'panel.synthesize')}
          hint={t('panel.synthesizeHint')}
          pressed={synthesizing}
          onClick={() =>
            requireSignIn(() => {
              if (!synthesizing && !onPlatform) navigate(PLATFORM_PATH);
              synthesisMode.send({ type: 'synthesis.toggle' });
            })
          }
        />
        <Link to="/cognition/library" className={`cog-panel-action${pathname.startsWith('/cognition/library') ? ' is-current' : ''}`} aria-current={pathname.startsWith('/cognition/library') ? 'page' : undefined} aria-label={t('panel.library')} aria-describedby={libraryHint}>
          <span className="cog-panel-action-icon">
            <LibraryIcon size={17} />
          </span>
          <span className="cog-panel-action-text">
            <span>{t('panel.library')}</span>
            <small id={libraryHint}>{t('panel.libraryHint')}</small>
          </span>
        </Link>
      </div>
      {!signedIn && (
        <div className="cog-panel-signin">
          <p>{t('panel.signInHint')}</p>
          <button type="button" className="button button-primary button-small" onClick={() => requireSignIn(() => undefined)}>
            <LogInIcon size={14} />
            {t('panel.signIn')}
          </button>
        </div>
      )}
      {askingUrl && (
        <UrlExtractDialog
          onClose={() => setAskingUrl(false)}
          onSubmit={(url) => {
            setAskingUrl(false);
            extraction.start({ kind: 'url', url });
          }}
        />
      )}
      <ExtractionDialog extraction={extraction} />
    </div>
  );
}

function PanelAction({ icon, label, hint, pressed, onClick }: { icon: ReactNode; label: string; hint: string; pressed?: boolean; onClick: () => void }) {
  const hintId = useId();
  return (
    <button type="button" className={`cog-panel-action${pressed ? ' is-on' : ''}`} aria-pressed={pressed} aria-label={label} aria-describedby={hintId} onClick={onClick}>
      <span className="cog-panel-action-icon">{icon}</span>
      <span className="cog-panel-action-text">
        <span>{label}</span>
        <small id={hintId}>{hint}</small>
      </span>
    </button>
  );
}

/**
 * On the platform the query lives in the address (?q=), so results can be linked, reloaded and
 * stepped back through; typing there searches live, elsewhere Enter opens the platform's results.
 */
function PlatformSearch() {
  const { t } = useTranslation('cognition');
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const live = pathname === PLATFORM_PATH;
  const applied = live ? (params.get('q') ?? '') : '';

  const apply = (query: string) => {
    const next = new URLSearchParams(live ? params : undefined);
    if (query === '') next.delete('q');
    else next.set('q', query);
    const search = next.toString();
    navigate({ pathname: PLATFORM_PATH, search: search === '' ? '' : `?${search}` }, { replace: live });
  };

  return <SearchField applied={applied} live={live} label={t('panel.searchLabel')} placeholder={t('panel.searchPlaceholder')} onSearch={apply} />;
}
