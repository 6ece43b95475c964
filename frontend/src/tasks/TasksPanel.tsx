import { useTranslation } from 'react-i18next';
import { claimedCoins, taskStage } from './tasks.ts';
import { claimedMeanwhile, useClaimsPending, useClaimTask, useTaskSummary } from './queries.ts';
import { CheckIcon, CircleAlertIcon, CircleCheckIcon, CoinsIcon, GiftIcon } from '../ui/icons.ts';
import { AccountCardHead } from '../account/AccountCardHead.tsx';
import '../ui/ui.css';
import './tasks.css';

/** The day's tasks in the user status dialog, each reward claimed from its row. */
export function TasksPanel() {
  const { t } = useTranslation('tasks');
  const tasks = useTaskSummary();
  const claim = useClaimTask();
  const claiming = useClaimsPending();
  // The latest claim's outcome; a reward claimed meanwhile elsewhere just shows as claimed.
  const notice = claim.isSuccess ? ({ kind: 'claimed', coins: claimedCoins(claim.data) } as const) : claim.isError && !claimedMeanwhile(claim.error) ? ({ kind: 'failed' } as const) : null;

  return (
    <section className="account-card account-tasks">
      <AccountCardHead icon={<GiftIcon />} title={t('title')} />
      {tasks.status === 'pending' && (
        <div className="skeleton-stack" aria-hidden="true">
          <span className="skeleton skeleton-tall" />
          <span className="skeleton skeleton-tall" />
          <span className="skeleton skeleton-tall" />
        </div>
      )}
      {tasks.status === 'error' && <p className="account-empty">{t('loadFailed')}</p>}
      {tasks.status === 'success' && (
        <>
          <dl className="quota-facts task-stats">
            <div>
              <dt>{t('completed')}</dt>
              <dd>{tasks.data.completed_tasks_today}</dd>
            </div>
            <div>
              <dt>{t('total')}</dt>
              <dd>{tasks.data.total_tasks_available}</dd>
            </div>
            <div>
              <dt>{t('coinsToday')}</dt>
              <dd className="task-stats-coins">
                <CoinsIcon size={15} />
                {tasks.data.total_coins_earned_today}
              </dd>
            </div>
          </dl>
          {notice && (
            <p className={`account-notice ${notice.kind === 'claimed' ? 'account-notice-success' : 'account-notice-error'}`} role="status">
              {notice.kind === 'claimed' ? <CheckIcon size={15} /> : <CircleAlertIcon size={15} />}
              {notice.kind === 'claimed' ? t('claimedMessage', { coins: notice.coins }) : t('claimFailed')}
            </p>
          )}
          {tasks.data.tasks.length === 0 ? (
            <p className="account-empty">{t('empty')}</p>
          ) : (
            <ul className="card-list">
              {tasks.data.tasks.map((task) => {
                const stage = taskStage(task);
                const target = Math.max(1, task.target_progress);
                const current = Math.min(task.current_progress, target);
                return (
                  <li key={task.task_id} className={`task task-${stage}`}>
                    <div className="task-main">
                      <div className="task-title-row">
                        <span className="task-name">{t(`catalogue.${task.task_type}.name`, { defaultValue: task.name })}</span>
                        <span className="task-reward">
                          <CoinsIcon size={13} />
                          {t('reward', { coins: task.coin_reward })}
                        </span>
                      </div>
                      {/* Known tasks read in the user's language; a task the client does not know yet shows the server's text. */}
                      <p className="task-description">{t(`catalogue.${task.task_type}.description`, { count: task.target_progress, defaultValue: task.description })}</p>
                      <div className="task-progress">
                        <span className="task-progress-bar">
                          <span style={{ width: `${(current / target) * 100}%` }} />
                        </span>
                        <span className="task-progress-text">{t('progress', { current: task.current_progress, target: task.target_progress })}</span>
                      </div>
                    </div>
                    <div className="task-action">
                      {stage === 'claimable' && (
                        <button className="button button-primary button-small" type="button" onClick={() => claim.mutate(task.task_id)} disabled={claiming.has(task.task_id)} aria-busy={claiming.has(task.task_id)}>
                          {claiming.has(task.task_id) && <span className="spinner spinner-small" aria-hidden="true" />}
                          {claiming.has(task.task_id) ? t('claiming') : t('claim')}
                        </button>
                      )}
                      {stage === 'claimed' && (
                        <span className="task-claimed-mark" title={t('claimed')}>
                          <CircleCheckIcon size={20} />
                          <span>{t('claimed')}</span>
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
