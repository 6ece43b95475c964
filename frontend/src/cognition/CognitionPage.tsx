import { useEffect, useEffectEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { CardSkeletons, CognitionCard, NoCognitions } from './CognitionCard.tsx';
import { useSignInFirst } from './useSignInFirst.ts';
import { synthesisMode, useSynthesisOn, useSynthesisPicks } from './synthesisMode.ts';
import { canTick } from './synthesis.ts';
import { SynthesisBar } from './SynthesisBar.tsx';
import { useCognitionList, type CognitionList } from './useCognitionList.ts';
import { ChevronDownIcon, RefreshCwIcon, SearchIcon } from '../ui/icons.ts';
import './cognition.css';

type Scope = 'public' | 'mine';

/** The cognition platform: everyone's public cognitions, searchable; the side panel drives search and synthesis. */
export default function CognitionPage() {
  const { t } = useTranslation('cognition');
  const [params, setParams] = useSearchParams();
  const { signedIn } = useSignInFirst();
  const q = params.get('q') ?? '';
  // "Mine" is offered so one's own private cognitions can be picked for a synthesis too.
  const scope: Scope = signedIn && params.get('scope') === 'mine' ? 'mine' : 'public';
  const list = useCognitionList(scope, q);
  const synthesizing = useSynthesisOn();

  const setScope = (next: Scope) => {
    const updated = new URLSearchParams(params);
    if (next === 'public') updated.delete('scope');
    else updated.set('scope', next);
    setParams(updated, { replace: true });
  };
  // A synthesis started where there is nothing public to pick from turns to the reader's own, once.
  const turnedToMine = useRef(false);
  const nothingPublic = scope === 'public' && q === '' && !list.loading && list.total === 0;
  const turnToMine = useEffectEvent(() => setScope('mine'));
  useEffect(() => {
    if (!synthesizing) {
      turnedToMine.current = false;
      return;
    }
    if (signedIn && nothingPublic && !turnedToMine.current) {
      turnedToMine.current = true;
      turnToMine();
    }
  }, [synthesizing, signedIn, nothingPublic]);

  const clearSearch = () => {
    const updated = new URLSearchParams(params);
    updated.delete('q');
    setParams(updated, { replace: true });
  };

  return (
    <div className={`cog-page${synthesizing ? ' has-synthesis-bar' : ''}`}>
      <header className="cog-hero">
        <div className="cog-hero-text">
          <h1>{t('platform.title')}</h1>
          <p>{t('platform.subtitle')}</p>
        </div>
        {signedIn && (
          <div className="segmented cog-scope" role="group" aria-label={t('platform.scopeLabel')}>
            {(['public', 'mine'] as const).map((value) => (
              <button key={value} type="button" className={scope === value ? 'active' : ''} aria-pressed={scope === value} onClick={() => setScope(value)}>
                {t(value === 'public' ? 'platform.scopePublic' : 'platform.scopeMine')}
              </button>
            ))}
          </div>
        )}
      </header>

      <div className="cog-list-bar">
        {q !== '' ? (
          <p className="cog-results-for">
            <SearchIcon size={15} />
            <span>{t('platform.resultsFor', { query: q })}</span>
            {!list.loading && <span className="cog-count">{t('platform.total', { count: list.total })}</span>}
            <button type="button" className="link-button" onClick={clearSearch}>
              {t('platform.clearSearch')}
            </button>
          </p>
        ) : (
          !list.loading && list.total > 0 && <p className="cog-count">{t('platform.total', { count: list.total })}</p>
        )}
      </div>

      <CognitionResults list={list} q={q} scope={scope} selecting={synthesizing} />
      {synthesizing && <SynthesisBar />}
    </div>
  );
}

function CognitionResults({ list, q, scope, selecting }: { list: CognitionList; q: string; scope: Scope; selecting: boolean }) {
  const { t } = useTranslation('cognition');
  const selected = useSynthesisPicks();

  if (list.loading) return <CardSkeletons />;
  if (list.error && list.items.length === 0)
    return (
      <div className="cog-empty">
        <ErrorBanner error={list.error} />
        <button type="button" className="button button-secondary" onClick={list.reload}>
          <RefreshCwIcon size={16} />
          {t('platform.retry')}
        </button>
      </div>
    );
  if (list.items.length === 0) return <NoCognitions searching={q !== ''} mine={scope === 'mine'} />;

  return (
    <>
      <div className="cog-grid">
        {list.items.map((item) => (
          <CognitionCard
            key={item.id}
            item={item}
            selection={
              selecting
                ? {
                    selected: selected.some((entry) => entry.id === item.id),
                    enabled: canTick(selected, item.id),
                    onToggle: () => synthesisMode.send({ type: 'synthesis.pick', item }),
                  }
                : undefined
            }
          />
        ))}
      </div>
      {list.error && <ErrorBanner error={list.error} />}
      <div className="cog-more">
        {list.hasMore ? (
          <button type="button" className="button button-secondary" onClick={list.loadMore} disabled={list.loadingMore}>
            {list.loadingMore ? <span className="spinner spinner-small" /> : <ChevronDownIcon size={16} />}
            {t('platform.loadMore')}
          </button>
        ) : (
          list.items.length > 6 && <span className="cog-end">{t('platform.end')}</span>
        )}
      </div>
    </>
  );
}
