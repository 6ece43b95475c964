import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { agentsApi, type AgentDto, type ToolRun } from './api.ts';
import { refusalMessage } from '../api/client.ts';
import { queryClient, queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { ToolTester } from './ToolTester.tsx';
import { useRelativeTime } from '../ui/useRelativeTime.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import './agents.css';
import { PlusIcon, SparklesIcon } from '../ui/icons.ts';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import '../ui/ui.css';
import { COMPACT_SCREEN, useMediaQuery } from '../ui/useMediaQuery.ts';

/** /remote: agent monitoring — each agent, its tools and how its tool runs went; `?agent=` opens one. */
export default function RemotePage() {
  const { t } = useTranslation('agents');
  const time = useRelativeTime();
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('agent');
  const [deleting, setDeleting] = useState<AgentDto | null>(null);
  const list = useApiQuery({ queryKey: queryKeys.agents, queryFn: agentsApi.list });
  const detail = useApiQuery({ queryKey: queryKeys.agent(selectedId ?? ''), queryFn: () => agentsApi.get(selectedId ?? ''), enabled: selectedId !== null });
  // A tool run or a deletion changes the counts in the list and the runs of the agent shown.
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.agents });
  const remove = useApiMutation({
    mutationFn: (agent: AgentDto) => agentsApi.remove(agent.id),
    onSuccess: () => {
      setParams({});
      refresh();
    },
  });

  const agents = list.data?.agents ?? null;
  const tools = list.data?.tools ?? [];
  const runs = detail.data?.recent_tests ?? [];
  const error = remove.error ?? list.error ?? detail.error;
  const selected = agents?.find((agent) => agent.id === selectedId) ?? null;
  const compact = useMediaQuery(COMPACT_SCREEN);
  const detailRef = useRef<HTMLDivElement>(null);
  // On a phone the details stack under the list: a tap on an agent brings them into view.
  const shownId = selected?.id;
  useEffect(() => {
    if (compact && shownId) detailRef.current?.scrollIntoView({ block: 'start' });
  }, [compact, shownId]);

  return (
    <div className="agent-page">
      <header className="agent-head page-head">
        <div>
          <h1>{t('monitor.title')}</h1>
          <p className="muted">{t('monitor.subtitle')}</p>
        </div>
        <Link className="button button-primary button-small" to="/remote/create">
          <PlusIcon size={14} />
          {t('monitor.create')}
        </Link>
      </header>
      {error && <ErrorBanner error={error} />}
      {agents === null ? (
        !error && <span className="spinner" />
      ) : agents.length === 0 ? (
        <div className="surface-card agent-empty">
          <SparklesIcon size={26} />
          <p>{t('monitor.empty')}</p>
          <p className="muted">{t('monitor.emptyHint')}</p>
          <Link className="button button-primary" to="/remote/create">
            {t('monitor.create')}
          </Link>
        </div>
      ) : (
        <div className="agent-columns">
          <ul className="card-list">
            {agents.map((agent) => (
              <li key={agent.id}>
                <button type="button" className={`surface-card agent-item${agent.id === selectedId ? ' active' : ''}`} aria-current={agent.id === selectedId} onClick={() => setParams({ agent: agent.id })}>
                  <span className="agent-item-head">
                    <strong>{agent.name}</strong>
                    <span className={`agent-dot ${agent.tests === 0 ? 'idle' : agent.failed_tests > 0 ? 'warn' : 'ok'}`} aria-hidden="true" />
                  </span>
                  {agent.description && <span className="muted">{agent.description}</span>}
                  <span className="agent-tags">
                    {agent.tools.map((tool) => (
                      <code key={tool}>{tool}</code>
                    ))}
                  </span>
                  <span className="agent-stats muted">
                    {t('monitor.tests', { count: agent.tests })}
                    {agent.failed_tests > 0 && ` · ${t('monitor.failed', { count: agent.failed_tests })}`}
                    {' · '}
                    {agent.last_test_at ? t('monitor.lastTest', { time: time(agent.last_test_at) }) : t('monitor.never')}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {selected && (
            <div className="agent-detail" ref={detailRef}>
              <section className="surface-card">
                <header className="agent-detail-head">
                  <h2>{selected.name}</h2>
                  <Link className="button button-secondary button-small" to={`/remote/create?id=${encodeURIComponent(selected.id)}`}>
                    {t('monitor.edit')}
                  </Link>
                  <button type="button" className="button button-secondary button-small danger" onClick={() => setDeleting(selected)}>
                    {t('monitor.delete')}
                  </button>
                </header>
                <p className="agent-instructions">{selected.instructions}</p>
                <h3>{t('monitor.recent')}</h3>
                {runs.length === 0 ? (
                  <p className="muted">{t('monitor.noRuns')}</p>
                ) : (
                  <ul className="agent-runs">
                    {runs.map((run) => (
                      <ToolRunRow key={`${run.at}-${run.tool}`} run={run} />
                    ))}
                  </ul>
                )}
              </section>
              <ToolTester
                tools={tools.filter((tool) => selected.tools.includes(tool.name))}
                agentId={selected.id}
                onRan={refresh}
              />
            </div>
          )}
        </div>
      )}
      {deleting && (
        <ConfirmDialog title={t('monitor.deleteTitle', { name: deleting.name })} text={t('monitor.deleteText')} confirmLabel={t('monitor.delete')} onConfirm={() => remove.mutateAsync(deleting).catch(() => undefined)} onClose={() => setDeleting(null)} />
      )}
    </div>
  );
}

/** One run in an agent's history; a failure is worded in the reader's language when the catalogue has it. */
function ToolRunRow({ run }: { run: ToolRun }) {
  const { t } = useTranslation('agents');
  const time = useRelativeTime();
  const summary = run.ok ? run.summary : refusalMessage({ error_message: run.summary, code: run.code, params: run.params });
  return (
    <li className={run.ok ? 'ok' : 'failed'}>
      <span className="agent-run-status">{run.ok ? t('monitor.ok') : t('monitor.fail')}</span>
      <code>{run.tool}</code>
      <span className="agent-run-summary" title={summary}>
        {summary}
      </span>
      <span className="muted">
        {t('monitor.ms', { count: run.duration_ms })} · {time(run.at)}
      </span>
    </li>
  );
}
