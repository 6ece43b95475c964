import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlanStep } from '@scriptorium/domain/protocol/research';
import type { PlanReview as PlanReviewPreference } from '@scriptorium/domain/protocol/http/conversation';
import { queryClient, queryKeys, useApiMutation, useApiQuery } from '../../api/query.ts';
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

/** What the card asks of the server: record the plan's steps (and maybe start it), start it as it is, or keep the review preference. */
type PlanAction = { kind: 'edit'; sessionId: string; steps: Array<{ description: string; queries: string[] }>; start?: boolean } | { kind: 'start'; sessionId: string } | { kind: 'review'; reviewPlans: boolean };

async function perform(action: PlanAction): Promise<PlanReviewPreference | null> {
  if (action.kind === 'review') return research.setPlanReview(action.reviewPlans);
  if (action.kind === 'edit') await research.editPlan(action.sessionId, action.steps);
  if (action.kind === 'start' || action.start) await research.startPlan(action.sessionId);
  return null;
}

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
  // One change at a time: every button waits for the one under way, and the last one's refusal shows.
  const plan = useApiMutation({ mutationFn: perform, onSuccess: (preference) => preference && queryClient.setQueryData(queryKeys.planReview, preference) });
  const reviewPlans = useApiQuery({ queryKey: queryKeys.planReview, queryFn: research.planReview, select: (preference) => preference.review_plans });
  if (!sessionId) return null;

  const current = () => steps.map((step, index) => ({ description: step.description, queries: review.queries[index] ?? [] }));
  const edit = () =>
    // Opening the editor records the plan as it is: that is an edit, so the countdown stops while the user edits.
    plan.mutate({ kind: 'edit', sessionId, steps: current() }, { onSuccess: () => setDraft(current().map((step) => ({ description: step.description, queries: step.queries.join('，') }))) });
  const written = () => (draft ?? []).map((step) => ({ description: step.description, queries: splitQueries(step.queries) }));
  const save = (start: boolean) => plan.mutate({ kind: 'edit', sessionId, steps: written(), start }, { onSuccess: () => setDraft(null) });
  const change = (index: number, patch: Partial<DraftStep>) => setDraft((rows) => rows && rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  const move = (index: number, by: number) =>
    setDraft((rows) => {
      if (!rows || index + by < 0 || index + by >= rows.length) return rows;
      const next = rows.slice();
      [next[index], next[index + by]] = [next[index + by]!, next[index]!];
      return next;
    });

  return (
    <div className="plan-review">
      {draft ? (
        <form
          className="plan-editor"
          onSubmit={(event) => {
            event.preventDefault();
            save(true);
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
            <button type="button" className="button button-secondary button-small" disabled={plan.isPending} onClick={() => save(false)}>
              {t('stream.planReview.save')}
            </button>
            <button type="submit" className="button button-primary button-small" disabled={plan.isPending}>
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
            <button type="button" className="button button-secondary button-small" disabled={plan.isPending} onClick={edit}>
              <SquarePenIcon size={14} />
              {t('stream.planReview.edit')}
            </button>
            <button type="button" className="button button-primary button-small" disabled={plan.isPending} onClick={() => plan.mutate({ kind: 'start', sessionId })}>
              <PlayIcon size={14} />
              {t('stream.planReview.start')}
            </button>
          </div>
        </>
      )}
      {plan.error && (
        <p className="plan-review-error" role="alert">
          {plan.error.message}
        </p>
      )}
      {reviewPlans.data !== undefined && (
        <label className="plan-review-setting">
          <input type="checkbox" checked={reviewPlans.data} disabled={plan.isPending} onChange={(event) => plan.mutate({ kind: 'review', reviewPlans: event.target.checked })} />
          {t('stream.planReview.always')}
        </label>
      )}
    </div>
  );
}
