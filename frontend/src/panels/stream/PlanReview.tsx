import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlanStep } from '@scriptorium/domain/protocol/research';
import { toApiError } from '../../api/client.ts';
import { research } from '../../api/research.ts';
import { useSessionRef } from '../../research/sessionContext.ts';
import { ArrowDownIcon, ArrowUpIcon, PlayIcon, PlusIcon, SquarePenIcon, Trash2Icon } from '../../ui/icons.ts';

/** Where a plan's review stands, from its `plan_review` items: waiting (on a countdown until `startsAt`), edited (the countdown stopped) or started. */
export interface PlanReview {
  status: 'waiting' | 'edited' | 'started';
  startsAt: string | null;
  /** Each step's searches, as planned or last edited. */
  queries: string[][];
}

interface DraftStep {
  description: string;
  queries: string;
}

/** Searches as typed in one box: separated by commas, semicolons or lines, in either script. */
const QUERY_SEPARATORS = /[,，;；\n]/;
const splitQueries = (text: string) => text.split(QUERY_SEPARATORS).map((query) => query.trim()).filter(Boolean);

/** Seconds until `startsAt`, ticking while the countdown runs. */
function useSecondsLeft(startsAt: string | null): number | null {
  const left = () => (startsAt === null ? null : Math.max(0, Math.ceil((Date.parse(startsAt) - Date.now()) / 1000)));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    if (startsAt === null) return;
    const timer = setInterval(() => setSeconds(left()), 250);
    return () => clearInterval(timer);
    // `left` reads only startsAt.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [startsAt]);
  return seconds;
}

/**
 * The plan waiting to be researched, in its card: the countdown (any edit stops it), start now,
 * edit the steps (reword, add, remove, reorder, change their searches), and whether the user wants
 * to review every plan before research.
 */
export function PlanReviewPanel({ steps, review }: { steps: PlanStep[]; review: PlanReview }) {
  const { t } = useTranslation();
  const session = useSessionRef();
  const sessionId = session?.getSnapshot().context.id ?? null;
  const countdown = review.status === 'waiting' ? review.startsAt : null;
  const seconds = useSecondsLeft(countdown);
  const [draft, setDraft] = useState<DraftStep[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [reviewPlans, setReviewPlans] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    research.planReview().then(
      (preference) => live && setReviewPlans(preference.review_plans),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  if (!sessionId) return null;

  const act = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (failure) {
      setError(toApiError(failure).message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const current = () => steps.map((step, index) => ({ description: step.description, queries: review.queries[index] ?? [] }));
  const edit = async () => {
    // Opening the editor records the plan as it is: that is an edit, so the countdown stops while the user edits.
    if (await act(() => research.editPlan(sessionId, current()))) setDraft(current().map((step) => ({ description: step.description, queries: step.queries.join('，') })));
  };
  const written = () => (draft ?? []).map((step) => ({ description: step.description, queries: splitQueries(step.queries) }));
  const save = async (start: boolean) => {
    const saved = await act(async () => {
      await research.editPlan(sessionId, written());
      if (start) await research.startPlan(sessionId);
    });
    if (saved) setDraft(null);
  };
  const change = (index: number, patch: Partial<DraftStep>) => setDraft((rows) => rows && rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  const move = (index: number, by: number) =>
    setDraft((rows) => {
      if (!rows || index + by < 0 || index + by >= rows.length) return rows;
      const next = rows.slice();
      [next[index], next[index + by]] = [next[index + by]!, next[index]!];
      return next;
    });
  const toggleReview = (value: boolean) => void act(async () => setReviewPlans((await research.setPlanReview(value)).review_plans));

  return (
    <div className="plan-review">
      {draft ? (
        <form
          className="plan-editor"
          onSubmit={(event) => {
            event.preventDefault();
            void save(true);
          }}
        >
          <ol className="plan-editor-steps">
            {draft.map((row, index) => (
              <li key={index} className="plan-editor-step">
                <textarea className="input" rows={2} aria-label={t('stream.planReview.step', { index: index + 1 })} value={row.description} onChange={(event) => change(index, { description: event.target.value })} />
                <input className="input" aria-label={t('stream.planReview.queries', { index: index + 1 })} placeholder={t('stream.planReview.queriesHint')} value={row.queries} onChange={(event) => change(index, { queries: event.target.value })} />
                <span className="plan-editor-actions">
                  <button type="button" className="icon-button" aria-label={t('stream.planReview.up', { index: index + 1 })} disabled={index === 0} onClick={() => move(index, -1)}>
                    <ArrowUpIcon size={14} />
                  </button>
                  <button type="button" className="icon-button" aria-label={t('stream.planReview.down', { index: index + 1 })} disabled={index === draft.length - 1} onClick={() => move(index, 1)}>
                    <ArrowDownIcon size={14} />
                  </button>
                  <button type="button" className="icon-button" aria-label={t('stream.planReview.remove', { index: index + 1 })} onClick={() => setDraft(draft.filter((_, at) => at !== index))}>
                    <Trash2Icon size={14} />
                  </button>
                </span>
              </li>
            ))}
          </ol>
          <div className="card-actions start">
            <button type="button" className="button button-secondary button-small" onClick={() => setDraft([...draft, { description: '', queries: '' }])}>
              <PlusIcon size={14} />
              {t('stream.planReview.add')}
            </button>
            <button type="button" className="button button-secondary button-small" disabled={busy} onClick={() => void save(false)}>
              {t('stream.planReview.save')}
            </button>
            <button type="submit" className="button button-primary button-small" disabled={busy}>
              <PlayIcon size={14} />
              {t('stream.planReview.saveAndStart')}
            </button>
          </div>
        </form>
      ) : (
        <>
          <p className="plan-review-status" role="status">
            {seconds !== null ? t('stream.planReview.countdown', { seconds }) : t('stream.planReview.waiting')}
          </p>
          <div className="card-actions start">
            <button type="button" className="button button-secondary button-small" disabled={busy} onClick={() => void edit()}>
              <SquarePenIcon size={14} />
              {t('stream.planReview.edit')}
            </button>
            <button type="button" className="button button-primary button-small" disabled={busy} onClick={() => void act(() => research.startPlan(sessionId))}>
              <PlayIcon size={14} />
              {t('stream.planReview.start')}
            </button>
          </div>
        </>
      )}
      {error && (
        <p className="plan-review-error" role="alert">
          {error}
        </p>
      )}
      {reviewPlans !== null && (
        <label className="plan-review-setting">
          <input type="checkbox" checked={reviewPlans} disabled={busy} onChange={(event) => toggleReview(event.target.checked)} />
          {t('stream.planReview.always')}
        </label>
      )}
    </div>
  );
}
