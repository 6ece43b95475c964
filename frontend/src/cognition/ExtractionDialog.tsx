import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { refusalMessage } from '../api/client.ts';
import { displayPath } from './CognitionCard.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import type { CognitionExtraction } from './useCognitionExtraction.ts';
import { ArrowRightIcon, CheckIcon, CircleAlertIcon, RefreshCwIcon, SparklesIcon, XIcon } from '../ui/icons.ts';
import './cognition.css';

type Step = 'submit' | 'extract' | 'done';
const STEPS: readonly Step[] = ['submit', 'extract', 'done'];

type StepState = 'done' | 'active' | 'failed' | 'todo';

/** Where the extraction is along submit → distil → done; a failure marks the step it failed at. */
function stepStates(extraction: CognitionExtraction): StepState[] {
  const { phase, problem } = extraction;
  const at = phase === 'starting' ? 0 : phase === 'waiting' ? 1 : phase === 'completed' ? STEPS.length : problem?.kind === 'start' ? 0 : 1;
  return STEPS.map((_, index) => (index < at ? 'done' : index > at ? 'todo' : phase === 'failed' ? 'failed' : 'active'));
}

/**
 * The progress of an extraction, shown from the request until the new cognition opens. Completion
 * navigates to the cognition by itself (then `onOpened` runs); failure offers retry. Closing stops
 * watching, not the job: the cognition still lands in the library.
 */
export function ExtractionDialog({ extraction, onOpened }: { extraction: CognitionExtraction; onOpened?: (cognitionId: string) => void }) {
  const { t } = useTranslation('cognition');
  const navigate = useNavigate();
  const { phase, cognitionId, request, reset } = extraction;

  useEffect(() => {
    if (phase !== 'completed' || !cognitionId) return;
    // A moment on "done" so the result does not appear to come from nowhere.
    const timer = setTimeout(() => {
      reset();
      navigate(displayPath(cognitionId));
      onOpened?.(cognitionId);
    }, 600);
    return () => clearTimeout(timer);
  }, [phase, cognitionId, reset, navigate, onOpened]);

  if (phase === 'idle' || !request) return null;
  const title = t(`extraction.title.${request.kind}`);
  const statusKey = phase === 'starting' ? 'starting' : phase === 'waiting' ? (extraction.status === 'running' ? 'running' : 'pending') : phase;

  return (
    <Dialog title={title} hideTitle onClose={reset} className="cog-progress-dialog">
      <div className={`cog-progress-icon is-${phase}`}>
        {phase === 'failed' ? <CircleAlertIcon size={26} /> : phase === 'completed' ? <CheckIcon size={26} /> : <SparklesIcon size={26} />}
      </div>
      <h2 className="dialog-title" aria-hidden="true">
        {title}
      </h2>
      <ol className="cog-steps" aria-hidden="true">
        {stepStates(extraction).map((state, index) => (
          <li key={STEPS[index]} className={`cog-step is-${state}`}>
            <span className="cog-step-dot">{state === 'done' ? <CheckIcon size={12} /> : state === 'failed' ? <XIcon size={12} /> : index + 1}</span>
            <span>{t(`extraction.steps.${STEPS[index]!}`)}</span>
          </li>
        ))}
      </ol>
      <p className={`cog-progress-status is-${phase}`} role="status">
        {(phase === 'starting' || phase === 'waiting') && <span className="spinner spinner-small" />}
        {t(`extraction.status.${statusKey}`)}
      </p>
      {phase === 'failed' && extraction.problem && (
        <div className="banner banner-error" role="alert">
          <CircleAlertIcon size={18} className="banner-icon" />
          <div>
            <strong>{t(`extraction.problem.${extraction.problem.kind}`)}</strong>
            {extraction.problem.message && <p>{refusalMessage({ error_message: extraction.problem.message, code: extraction.problem.code, params: extraction.problem.params })}</p>}
          </div>
        </div>
      )}
      {(phase === 'starting' || phase === 'waiting') && <p className="cog-progress-tip">{t('extraction.tip')}</p>}
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={reset}>
          {t('extraction.close')}
        </button>
        {phase === 'failed' && (
          <button type="button" className="button button-primary" onClick={extraction.retry}>
            <RefreshCwIcon size={16} />
            {t('extraction.retry')}
          </button>
        )}
        {phase === 'completed' && cognitionId && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              reset();
              navigate(displayPath(cognitionId));
              onOpened?.(cognitionId);
            }}
          >
            {t('extraction.open')}
            <ArrowRightIcon size={16} />
          </button>
        )}
      </div>
    </Dialog>
  );
}
