import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { ENDED_STATUSES, nodeRevision, SESSION_STATUSES, type EngineerSessionStatus } from '@scriptorium/domain/protocol/engineer';
import { engineerApi, type EngineerSession } from './api.ts';
import { queryKeys, useApiQuery } from '../api/query.ts';
import { CommandBox } from './CommandBox.tsx';
import { DemoLauncher } from './DemoLauncher.tsx';
import { NodeDetail } from './NodeDetail.tsx';
import { NodeTree } from './NodeTree.tsx';
import { Proposals } from './Proposals.tsx';
import { useLiveSession } from './useLiveSession.ts';
import '../ui/listDetail.css';
import './engineer.css';
import { Select } from '../ui/Select.tsx';
import { ArrowLeftIcon, TerminalIcon } from '../ui/icons.ts';

function StatusBadge({ status }: { status: EngineerSessionStatus }) {
  const { t } = useTranslation('engineer');
  return <span className={`engineer-status is-${status}`}>{t(`status.${status}`)}</span>;
}

function SessionList({ sessions, selected, filter, onFilter }: { sessions: EngineerSession[] | undefined; selected: string | undefined; filter: EngineerSessionStatus | ''; onFilter: (value: EngineerSessionStatus | '') => void }) {
  const { t } = useTranslation('engineer');
  const queries = useQueryClient();
  return (
    <nav className="list-detail-list engineer-sessions" aria-label={t('title')}>
      <DemoLauncher onStarted={() => void queries.invalidateQueries({ queryKey: queryKeys.engineer('sessions') })} />
      <Select<EngineerSessionStatus | ''> label={t('filter')} value={filter} onChange={onFilter} options={[{ value: '', label: t('all') }, ...SESSION_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))]} />
      {sessions?.length === 0 && (
        <div className="engineer-empty">
          <p>{t('empty')}</p>
          <p className="muted">{t('emptyHint')}</p>
        </div>
      )}
      <ul>
        {sessions?.map((session) => (
          <li key={session.id}>
            <Link to={`/engineer/${session.id}`} className={session.id === selected ? 'is-selected' : ''} aria-current={session.id === selected ? 'page' : undefined}>
              <strong>{session.title}</strong>
              <span className="engineer-session-meta">
                <StatusBadge status={session.status} />
                <span className="muted">{t(`source.${session.source}`)}</span>
                <span className="muted">{t('nodes', { count: session.node_count })}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Stats({ sessionId, running }: { sessionId: string; running: boolean }) {
  const { t } = useTranslation('engineer');
  const stats = useApiQuery({ queryKey: queryKeys.engineer('stats', sessionId), queryFn: () => engineerApi.stats(sessionId), refetchInterval: running ? 3000 : false }).data;
  if (!stats) return null;
  const seconds = Math.round(stats.duration_seconds);
  const items: Array<[string, string | number]> = [
    [t('stats.nodes'), stats.total_nodes],
    [t('stats.failed'), stats.by_status.failed ?? 0],
    [t('stats.commands'), stats.command_count],
    [t('stats.tokens'), stats.tokens],
    [t('stats.duration'), t('duration', { minutes: Math.floor(seconds / 60), seconds: seconds % 60 })],
  ];
  return (
    <dl className="engineer-stats">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function SessionView({ sessionId, session }: { sessionId: string; session: EngineerSession | undefined }) {
  const { t } = useTranslation('engineer');
  const queries = useQueryClient();
  const refresh = useCallback(() => void queries.invalidateQueries({ queryKey: queryKeys.engineer() }), [queries]);
  const live = useLiveSession(sessionId, refresh);
  const [selected, setSelected] = useState<string | null>(null);
  const nodes = live?.nodes;
  // Grows with every node and every update of one (its revision), and only then.
  const versions = useMemo(() => [...(nodes?.values() ?? [])].reduce((sum, node) => sum + nodeRevision(node), 0), [nodes]);
  // The list's node counts and the stats are read over HTTP: new nodes and updated ones from the socket bring them
  // up to date. A read already under way is kept rather than restarted, so a burst of nodes costs one read each.
  useEffect(() => {
    if (versions === 0) return;
    void queries.invalidateQueries({ queryKey: queryKeys.engineer('sessions') }, { cancelRefetch: false });
    void queries.invalidateQueries({ queryKey: queryKeys.engineer('stats', sessionId) }, { cancelRefetch: false });
  }, [versions, queries, sessionId]);
  if (!live) return null;
  if (live.failed) return <p className="engineer-empty">{t('loadFailed')}</p>;
  const status = live.status ?? session?.status ?? null;
  return (
    <section className="engineer-session">
      <header className="engineer-head">
        <h2>{session?.title ?? sessionId}</h2>
        {status && <StatusBadge status={status} />}
        {/* An ended session takes no more nodes: whether its socket is live says nothing to the reader. */}
        {!(status && ENDED_STATUSES.includes(status)) && <span className={`engineer-live is-${live.live}`}>{t(`live.${live.live}`)}</span>}
      </header>
      {session?.task_description && <p className="muted engineer-task">{session.task_description}</p>}
      <Stats sessionId={sessionId} running={status === 'running' || status === 'waiting_input'} />
      {live.history.more && session && session.node_count > live.nodes.size && <p className="muted engineer-loaded">{t('loaded', { loaded: live.nodes.size, total: session.node_count })}</p>}
      <div className="engineer-body">
        <NodeTree nodes={live.nodes} history={live.history} selected={selected} onSelect={setSelected} />
        <NodeDetail node={selected === null ? null : (live.nodes.get(selected) ?? null)} />
      </div>
      <Proposals sessionId={sessionId} status={status} nodes={live.nodes} commands={live.commands} />
      <CommandBox sessionId={sessionId} status={status} commands={live.commands} nodes={live.nodes} sendInput={live.sendInput} />
    </section>
  );
}

/** /engineer/:sessionId?: the user's AI-engineer sessions, one watched live. */
export default function EngineerPage() {
  const { t } = useTranslation('engineer');
  const { sessionId } = useParams();
  const [filter, setFilter] = useState<EngineerSessionStatus | ''>('');
  const sessions = useApiQuery({ queryKey: queryKeys.engineer('sessions', filter), queryFn: () => engineerApi.list(filter), refetchInterval: 5000 }).data?.sessions;
  const current = useApiQuery({ queryKey: queryKeys.engineer('session', sessionId), queryFn: () => engineerApi.get(sessionId!), enabled: sessionId !== undefined }).data;
  return (
    <div className="list-detail-page">
      <header className="list-detail-title">
        <TerminalIcon size={20} />
        <div>
          <h1>{t('title')}</h1>
          <p className="muted">{t('subtitle')}</p>
        </div>
      </header>
      {sessionId && (
        <Link to="/engineer" className="list-detail-back">
          <ArrowLeftIcon size={14} />
          {t('title')}
        </Link>
      )}
      <div className={`list-detail-layout engineer-layout${sessionId ? ' has-selection' : ''}`}>
        <SessionList sessions={sessions} selected={sessionId} filter={filter} onFilter={setFilter} />
        {sessionId ? <SessionView key={sessionId} sessionId={sessionId} session={current} /> : <p className="engineer-empty muted">{t('pick')}</p>}
      </div>
    </div>
  );
}
