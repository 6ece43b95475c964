import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accountApi, type Task, type TaskSummary } from './api.ts';
import { claimedCoins, taskStage } from './quota.ts';
import type { UseQueryResult } from '@tanstack/react-query';
import { toApiError, type ApiError } from '../api/client.ts';
import { CheckIcon, CircleAlertIcon, CircleCheckIcon, CoinsIcon, GiftIcon } from '../ui/icons.ts';
import { AccountCardHead } from './AccountCardHead.tsx';

type ClaimNotice = { kind: 'claimed'; coins: number } | { kind: 'failed' };

export function TasksPanel({ tasks, onClaimed }: { tasks: UseQueryResult<TaskSummary, ApiError>; onClaimed: () => Promise<void> }) {
  const { t } = useTranslation('account');
  // Several claims may run at once; each task shows its own loading state.
  const [claiming, setClaiming] = useState<ReadonlySet<string>>(new Set());
  const [claimedNow, setClaimedNow] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState<ClaimNotice | null>(null);

  async function claim(task: Task) {
    setClaiming((current) => new Set(current).add(task.task_id));
    setNotice(null);
    try {
      const result = await accountApi.claimTask(task.task_id);
      setClaimedNow((current) => new Set(current).add(task.task_id));
      setNotice({ kind: 'claimed', coins: claimedCoins(result) });
      await onClaimed();
    } catch (failure) {
      // Claimed meanwhile (another tab, a double click): the list and balances are what is stale.
      if (toApiError(failure).code === 'tasks.reward_claimed') setClaimedNow((current) => new Set(current).add(task.task_id));
      else setNotice({ kind: 'failed' });
      await onClaimed().catch(() => undefined);
    } finally {
      setClaiming((current) => {
        const next = new Set(current);
        next.delete(task.task_id);
        return next;
      });
    }
  }

  return (
    <section className="account-card account-tasks">
      <AccountCardHead icon={<GiftIcon />} title={t('tasks.title')} />
      {tasks.status === 'pending' && (
        <div className="skeleton-stack" aria-hidden="true">
          <span className="skeleton skeleton-tall" />
          <span className="skeleton skeleton-tall" />
          <span className="skeleton skeleton-tall" />
        </div>
      )}
      {tasks.status === 'error' && <p className="account-empty">{t('tasks.loadFailed')}</p>}
      {tasks.status === 'success' && (
        <>
          <dl className="task-stats">
            <div>
              <dt>{t('tasks.completed')}</dt>
              <dd>{tasks.data.completed_tasks_today}</dd>
            </div>
            <div>
              <dt>{t('tasks.total')}</dt>
              <dd>{tasks.data.total_tasks_available}</dd>
            </div>
            <div>
              <dt>{t('tasks.coinsToday')}</dt>
              <dd className="task-stats-coins">
                <CoinsIcon size={15} />
                {tasks.data.total_coins_earned_today}
              </dd>
            </div>
          </dl>
          {notice && (
            <p className={`account-notice ${notice.kind === 'claimed' ? 'account-notice-success' : 'account-notice-error'}`} role="status">
              {notice.kind === 'claimed' ? <CheckIcon size={15} /> : <CircleAlertIcon size={15} />}
              {notice.kind === 'claimed' ? t('tasks.claimedMessage', { coins: notice.coins }) : t('tasks.claimFailed')}
            </p>
          )}
          {tasks.data.tasks.length === 0 ? (
            <p className="account-empty">{t('tasks.empty')}</p>
          ) : (
            <ul className="task-list">
              {tasks.data.tasks.map((task) => {
                // A claim that just succeeded counts before the refreshed summary arrives.
                const stage = claimedNow.has(task.task_id) ? 'claimed' : taskStage(task);
                const target = Math.max(1, task.target_progress);
                const current = Math.min(task.current_progress, target);
                return (
                  <li key={task.task_id} className={`task task-${stage}`}>
                    <div className="task-main">
                      <div className="task-title-row">
                        <span className="task-name">{t(`tasks.catalogue.${task.task_type}.name`, { defaultValue: task.name })}</span>
                        <span className="task-reward">
                          <CoinsIcon size={13} />
                          {t('tasks.reward', { coins: task.coin_reward })}
                        </span>
                      </div>
                      {/* Known tasks read in the user's language; a task the client does not know yet shows the server's text. */}
                      <p className="task-description">{t(`tasks.catalogue.${task.task_type}.description`, { count: task.target_progress, defaultValue: task.description })}</p>
                      <div className="task-progress">
                        <span className="task-progress-bar">
                          <span style={{ width: `${(current / target) * 100}%` }} />
                        </span>
                        <span className="task-progress-text">{t('tasks.progress', { current: task.current_progress, target: task.target_progress })}</span>
                      </div>
                    </div>
                    <div className="task-action">
                      {stage === 'claimable' && (
                        <button className="button button-primary button-small" type="button" onClick={() => claim(task)} disabled={claiming.has(task.task_id)} aria-busy={claiming.has(task.task_id)}>
                          {claiming.has(task.task_id) && <span className="spinner spinner-small" aria-hidden="true" />}
                          {claiming.has(task.task_id) ? t('tasks.claiming') : t('tasks.claim')}
                        </button>
                      )}
                      {stage === 'claimed' && (
                        <span className="task-claimed-mark" title={t('tasks.claimed')}>
                          <CircleCheckIcon size={20} />
                          <span>{t('tasks.claimed')}</span>
                        </span>
                      )}
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
