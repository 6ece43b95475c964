import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ExtractionDialog } from './ExtractionDialog.tsx';
import { synthesisReadiness } from './synthesis.ts';
import { synthesisMode, useSynthesisPicks } from './synthesisMode.ts';
import { useCognitionExtraction } from './useCognitionExtraction.ts';
import { LayersIcon, SparklesIcon, XIcon } from '../ui/icons.ts';
import './cognition.css';

/** Shown in synthesis mode: the picks so far, what is still needed, and the button once 2..5 are chosen. */
export function SynthesisBar() {
  const { t } = useTranslation('cognition');
  const selected = useSynthesisPicks();
  const extraction = useCognitionExtraction();
  const readiness = synthesisReadiness(selected.length);
  const hint =
    readiness.kind === 'empty' ? t('synthesis.hintEmpty') : readiness.kind === 'tooFew' ? t('synthesis.hintTooFew', { count: readiness.missing }) : readiness.kind === 'ready' ? t('synthesis.hintReady') : t('synthesis.full');
  const onOpened = useCallback(() => synthesisMode.send({ type: 'synthesis.stop' }), []);

  return (
    <div className="cog-synthesis-bar" role="region" aria-label={t('synthesis.label')}>
      <div className="cog-synthesis-head">
        <span className="cog-synthesis-icon">
          <LayersIcon size={18} />
        </span>
        <div className="cog-synthesis-text">
          <strong>{t('synthesis.selected', { count: selected.length })}</strong>
          <span>{hint}</span>
        </div>
      </div>
      <ul className="cog-synthesis-picks">
        {selected.map((item) => (
          <li key={item.id} className="cog-pick">
            <span className="cog-pick-title">{item.title}</span>
            <button type="button" className="cog-pick-remove" aria-label={t('synthesis.remove', { title: item.title })} onClick={() => synthesisMode.send({ type: 'synthesis.pick', item })}>
              <XIcon size={12} />
            </button>
          </li>
        ))}
      </ul>
      <div className="cog-synthesis-actions">
        {selected.length > 0 && (
          <button type="button" className="button button-secondary button-small" onClick={() => synthesisMode.send({ type: 'synthesis.clear' })}>
            {t('synthesis.clear')}
          </button>
        )}
        <button
          type="button"
          className="button button-primary"
          disabled={readiness.kind !== 'ready' || extraction.busy}
          onClick={() => extraction.start({ kind: 'synthesis', cognitionIds: selected.map((item) => item.id) })}
        >
          <SparklesIcon size={16} />
          {t('synthesis.submit')}
        </button>
      </div>
      <ExtractionDialog extraction={extraction} onOpened={onOpened} />
    </div>
  );
}
