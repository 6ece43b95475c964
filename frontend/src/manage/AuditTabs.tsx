import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from './api.ts';
import { queryClient, queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { caughtUp, restarted } from './model.ts';
import { Notice, Pager, TableState, useDateFormat, useNumberFormat, type NoticeState } from './shared.tsx';
import { DatabaseIcon, RefreshCwIcon, ShieldIcon } from '../ui/icons.ts';

const PAGE_SIZE = 50;
/** How often a rebuild's progress is read while it runs. */
const PROGRESS_MS = 1000;

const SEARCH_FIELDS = ['q', 'user', 'from', 'to'] as const;

/** A search is recorded with its criteria as JSON in place of a stream: shown as the search form's own labels and values. */
function SearchCriteria({ recorded }: { recorded: string }) {
  const { t } = useTranslation('account');
  let criteria: Partial<Record<(typeof SEARCH_FIELDS)[number] | 'kind', unknown>>;
  try {
    criteria = JSON.parse(recorded) as typeof criteria;
  } catch {
    return <span className="mono">{recorded}</span>;
  }
  const parts = SEARCH_FIELDS.filter((field) => typeof criteria[field] === 'string' && criteria[field] !== '').map((field) => `${t(`audit.search.${field}`)}: ${String(criteria[field])}`);
  if (typeof criteria.kind === 'string') parts.push(`${t('audit.search.kind')}: ${t(`audit.search.kinds.${criteria.kind}`, { defaultValue: criteria.kind })}`);
  return <span>{parts.join(' · ')}</span>;
}

/** Who read which stream at /audit, newest first. */
export function AuditReadsTab() {
  const { t } = useTranslation('account');
  const date = useDateFormat();
  const [skip, setSkip] = useState(0);
  const reads = useApiQuery({ queryKey: queryKeys.manage('audit-reads', skip), queryFn: () => adminApi.auditReads(skip, PAGE_SIZE) });
  const rows = reads.data?.reads ?? [];
  return (
    <div className="manage-panel">
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>{t('manage.auditReads.columns.at')}</th>
              <th>{t('manage.auditReads.columns.auditor')}</th>
              <th>{t('manage.auditReads.columns.action')}</th>
              <th>{t('manage.auditReads.columns.stream')}</th>
              <th>{t('manage.auditReads.columns.range')}</th>
            </tr>
          </thead>
          <tbody>
            <TableState loading={reads.isFetching} empty={rows.length === 0} error={reads.error} columns={5}>
              {t('manage.auditReads.empty')}
            </TableState>
            {rows.map((read) => (
              <tr key={read.id}>
                <td data-label={t('manage.auditReads.columns.at')}>{date(read.at)}</td>
                <td data-label={t('manage.auditReads.columns.auditor')}>{read.auditor}</td>
                <td data-label={t('manage.auditReads.columns.action')}>{t(`manage.auditReads.actions.${read.action}`)}</td>
                <td data-label={t('manage.auditReads.columns.stream')} className={read.action === 'search' ? undefined : 'mono'}>{read.action === 'search' ? <SearchCriteria recorded={read.stream_id} /> : read.stream_id}</td>
                <td data-label={t('manage.auditReads.columns.range')}>{read.after !== null && read.count !== null ? t('manage.auditReads.range', { from: read.after, count: read.count }) : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {reads.data && <Pager total={reads.data.total} skip={skip} limit={PAGE_SIZE} onSkip={setSkip} />}
    </div>
  );
}

/** The read models: where each stands against the log, a rebuild with progress, a verify against a shadow rebuild. */
export function ReadModelsTab() {
  const { t } = useTranslation('account');
  const number = useNumberFormat();
  const [rebuilding, setRebuilding] = useState<string | null>(null);
  const [notice, setNotice] = useState<NoticeState>(null);
  // A rebuild runs in the projector; its checkpoint climbing to the head is the progress, read every second.
  const models = useApiQuery({ queryKey: queryKeys.manage('read-models'), queryFn: () => adminApi.readModels(), refetchInterval: rebuilding ? PROGRESS_MS : false });
  const head = models.data?.head ?? 0;
  const done = rebuilding !== null && caughtUp(models.data, rebuilding);

  useEffect(() => {
    if (!done) return;
    setRebuilding(null);
    setNotice({ kind: 'success', text: t('manage.common.saved') });
  }, [done, t]);

  const verify = useApiMutation({
    mutationFn: (name: string) => adminApi.verify(name),
    onMutate: () => setNotice(null),
    onSuccess: (report, name) => {
      const values = { name, position: report.position, documents: report.documents, count: report.differences.length };
      setNotice(report.differences.length === 0 ? { kind: 'success', text: t('manage.readModels.verified', values) } : { kind: 'warning', text: t('manage.readModels.differs', values) });
    },
    onError: (error) => setNotice({ kind: 'error', error }),
  });
  const rebuild = useApiMutation({
    mutationFn: (name: string) => adminApi.rebuild(name),
    onMutate: () => {
      setNotice(null);
      verify.reset();
    },
    onSuccess: (started) => {
      // The server's answer puts the checkpoint back, so the rebuild is not taken as over before it is polled.
      queryClient.setQueryData<typeof models.data>(queryKeys.manage('read-models'), (list) => list && restarted(list, started.name, started.checkpoint, started.head));
      setRebuilding(started.name);
    },
    onError: (error) => setNotice({ kind: 'error', error }),
  });
  const report = verify.data ?? null;
  const busy = verify.isPending || rebuild.isPending;

  const rows = models.data?.projections ?? [];
  return (
    <div className="manage-panel">
      <p className="muted">{t('manage.readModels.hint')}</p>
      <Notice notice={notice} onDismiss={() => setNotice(null)} />
      {report && report.differences.length > 0 && (
        <ul className="verify-differences">
          {report.differences.map((difference) => (
            <li key={`${difference.collection}:${difference.id}`}>
              <strong>{t(`manage.readModels.kinds.${difference.kind}`)}</strong> <span className="mono">{`${difference.collection}/${difference.id}`}</span>
              <div className="verify-sides">
                <pre aria-label={t('manage.readModels.live')}>{JSON.stringify(difference.live, null, 2)}</pre>
                <pre aria-label={t('manage.readModels.shadow')}>{JSON.stringify(difference.shadow, null, 2)}</pre>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>{t('manage.readModels.columns.name')}</th>
              <th className="num">{t('manage.readModels.columns.checkpoint')}</th>
              <th>{t('manage.readModels.columns.progress')}</th>
              <th className="col-actions">{t('manage.readModels.columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            <TableState loading={models.isFetching} empty={rows.length === 0} error={models.error} columns={4} />
            {rows.map((model) => (
              <tr key={model.name}>
                <td data-label={t('manage.readModels.columns.name')}>
                  <DatabaseIcon size={14} /> {model.name}
                  {model.failing && <div className="account-notice-error">{t('manage.readModels.failing', { message: model.failing })}</div>}
                </td>
                <td data-label={t('manage.readModels.columns.checkpoint')} className="num">{number(model.checkpoint)}</td>
                <td data-label={t('manage.readModels.columns.progress')}>
                  <progress max={Math.max(head, 1)} value={Math.min(model.checkpoint, head)} aria-label={model.name === rebuilding ? t('manage.readModels.rebuilding', { name: model.name }) : model.name} />
                </td>
                <td data-label={t('manage.readModels.columns.actions')} className="col-actions">
                  <button className="button button-secondary button-small" type="button" disabled={busy || rebuilding !== null || !models.data?.rebuild_here} onClick={() => rebuild.mutate(model.name)} aria-label={t('manage.readModels.rebuild', { name: model.name })}>
                    <RefreshCwIcon size={14} />
                    {t('manage.readModels.rebuild', { name: '' })}
                  </button>
                  <button className="button button-secondary button-small" type="button" disabled={busy || rebuilding !== null} onClick={() => verify.mutate(model.name)} aria-label={t('manage.readModels.verify', { name: model.name })}>
                    <ShieldIcon size={14} />
                    {t('manage.readModels.verify', { name: '' })}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
