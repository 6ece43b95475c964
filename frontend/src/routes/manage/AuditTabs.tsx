import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError } from '../../api/client.ts';
import { adminApi, type ReadModel, type VerifyReport } from './api.ts';
import { queryKeys, useApiQuery } from '../../api/query.ts';
import { Notice, Pager, TableState, useDateFormat, useNumberFormat, type NoticeState } from './shared.tsx';
import { DatabaseIcon, RefreshCwIcon, ShieldIcon } from '../../ui/icons.ts';

const PAGE_SIZE = 50;
/** How often a rebuild's progress is read while it runs. */
const PROGRESS_MS = 1000;

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
                <td>{date(read.at)}</td>
                <td>{read.auditor}</td>
                <td>{t(`manage.auditReads.actions.${read.action}`)}</td>
                <td className="mono">{read.stream_id}</td>
                <td>{read.after !== null && read.count !== null ? t('manage.auditReads.range', { from: read.after, count: read.count }) : ''}</td>
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
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeState>(null);
  const [report, setReport] = useState<VerifyReport | null>(null);
  const models = useApiQuery({ queryKey: queryKeys.manage('read-models'), queryFn: () => adminApi.readModels() });
  const head = models.data?.head ?? 0;
  const current = models.data?.projections.find((model) => model.name === rebuilding);
  const { refetch } = models;
  const reload = () => void refetch();

  // A rebuild runs in the projector; its checkpoint climbing to the head is the progress.
  useEffect(() => {
    if (!rebuilding) return;
    if (current && current.checkpoint >= head) {
      setRebuilding(null);
      setNotice({ kind: 'success', text: t('manage.common.saved') });
      return;
    }
    const timer = setTimeout(() => void refetch(), PROGRESS_MS);
    return () => clearTimeout(timer);
  }, [rebuilding, current, head, refetch, t]);

  async function act(model: ReadModel, action: 'rebuild' | 'verify') {
    setBusy(true);
    setNotice(null);
    setReport(null);
    try {
      if (action === 'rebuild') {
        await adminApi.rebuild(model.name);
        setRebuilding(model.name);
        reload();
      } else {
        const result = await adminApi.verify(model.name);
        setReport(result);
        const values = { name: model.name, position: result.position, documents: result.documents, count: result.differences.length };
        setNotice(result.differences.length === 0 ? { kind: 'success', text: t('manage.readModels.verified', values) } : { kind: 'warning', text: t('manage.readModels.differs', values) });
      }
    } catch (error) {
      setNotice({ kind: 'error', error: toApiError(error) });
    } finally {
      setBusy(false);
    }
  }

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
                <td>
                  <DatabaseIcon size={14} /> {model.name}
                  {model.failing && <div className="account-notice-error">{t('manage.readModels.failing', { message: model.failing })}</div>}
                </td>
                <td className="num">{number(model.checkpoint)}</td>
                <td>
                  <progress max={Math.max(head, 1)} value={Math.min(model.checkpoint, head)} aria-label={model.name === rebuilding ? t('manage.readModels.rebuilding', { name: model.name }) : model.name} />
                </td>
                <td className="col-actions">
                  <button className="button button-secondary button-small" type="button" disabled={busy || rebuilding !== null || !models.data?.rebuild_here} onClick={() => void act(model, 'rebuild')} aria-label={t('manage.readModels.rebuild', { name: model.name })}>
                    <RefreshCwIcon size={14} />
                    {t('manage.readModels.rebuild', { name: '' })}
                  </button>
                  <button className="button button-secondary button-small" type="button" disabled={busy || rebuilding !== null} onClick={() => void act(model, 'verify')} aria-label={t('manage.readModels.verify', { name: model.name })}>
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
