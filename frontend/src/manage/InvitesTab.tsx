import { useState, type FormEvent } from 'react';
import { queryClient, queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { useTranslation } from 'react-i18next';
import { adminApi, type InviteCode, type InviteStatusFilter } from './api.ts';
import { Notice, Pager, TableState, useDateFormat, type NoticeState } from './shared.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { BanIcon, CheckIcon, CopyIcon, PlusIcon } from '../ui/icons.ts';

// The spec's default page of invite codes.
const PAGE_SIZE = 10;
const FILTERS: readonly InviteStatusFilter[] = ['all', 'unused', 'used', 'revoked'];

export function InvitesTab() {
  const { t } = useTranslation('account');
  const date = useDateFormat();
  const [status, setStatus] = useState<InviteStatusFilter>('all');
  const [skip, setSkip] = useState(0);
  const [count, setCount] = useState('5');
  const [notice, setNotice] = useState<NoticeState>(null);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const [copied, setCopied] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<InviteCode | null>(null);
  const invites = useApiQuery({ queryKey: queryKeys.manage('invites', `${skip}:${status}`), queryFn: () => adminApi.invites(skip, PAGE_SIZE, status) });
  const rows = invites.data?.invite_codes ?? [];

  const generating = useApiMutation({
    mutationFn: (howMany: number) => adminApi.generateInvites(howMany),
    onMutate: () => setNotice(null),
    onSuccess: (result) => {
      setFresh(new Set(result.invite_codes.map((invite) => invite.code)));
      setNotice({ kind: 'success', text: t('manage.invites.generated', { count: result.count }) });
      setSkip(0);
      void queryClient.invalidateQueries({ queryKey: queryKeys.manage('invites') });
    },
    onError: (error) => setNotice({ kind: 'error', error }),
  });

  function generate(event: FormEvent) {
    event.preventDefault();
    generating.mutate(Number(count));
  }

  async function copy(invite: InviteCode) {
    try {
      await navigator.clipboard.writeText(invite.code);
      setCopied(invite.code);
    } catch {
      setCopied(null);
      setNotice({ kind: 'warning', text: t('manage.invites.copyFailed') });
    }
  }

  const revoke = useApiMutation({
    mutationFn: (code: string) => adminApi.revokeInvite(code),
    onMutate: () => setNotice(null),
    onSuccess: (invite) => {
      setNotice({ kind: 'success', text: t('manage.invites.revoked', { code: invite.code }) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.manage('invites') });
    },
    onError: (error) => setNotice({ kind: 'error', error }),
  });

  return (
    <div className="manage-panel">
      <div className="manage-toolbar">
        <form className="inline-form" onSubmit={generate}>
          <label className="inline-label">
            {t('manage.invites.count')}
            <input className="input input-narrow" type="number" min={1} max={100} value={count} onChange={(event) => setCount(event.target.value)} required />
          </label>
          <button className="button button-primary button-small" type="submit" disabled={generating.isPending}>
            <PlusIcon size={14} />
            {t('manage.invites.generate')}
          </button>
        </form>
        <div className="segmented toolbar-end" role="group" aria-label={t('manage.invites.columns.status')}>
          {FILTERS.map((filter) => (
            <button
              key={filter}
              type="button"
              className={status === filter ? 'active' : undefined}
              aria-pressed={status === filter}
              onClick={() => {
                setStatus(filter);
                setSkip(0);
              }}
            >
              {t(`manage.invites.status.${filter}`)}
            </button>
          ))}
        </div>
      </div>
      <Notice notice={notice} onDismiss={() => setNotice(null)} />
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>{t('manage.invites.columns.code')}</th>
              <th>{t('manage.invites.columns.status')}</th>
              <th>{t('manage.invites.columns.createdAt')}</th>
              <th>{t('manage.invites.columns.usedBy')}</th>
              <th>{t('manage.invites.columns.usedAt')}</th>
              <th className="col-actions" aria-label={t('manage.invites.copy')} />
            </tr>
          </thead>
          <tbody>
            <TableState loading={invites.isFetching} empty={rows.length === 0} error={invites.error} columns={6} />
            {rows.map((invite) => (
              <tr key={invite.code} className={fresh.has(invite.code) ? 'row-fresh' : undefined}>
                <td data-label={t('manage.invites.columns.code')}>
                  <code className="invite-code">{invite.code}</code>
                </td>
                <td data-label={t('manage.invites.columns.status')}>
                  <span className={`mini-badge ${invite.status === 'unused' ? 'mini-badge-success' : 'mini-badge-muted'}`}>{t(`manage.invites.status.${invite.status}`)}</span>
                </td>
                <td data-label={t('manage.invites.columns.createdAt')}>{date(invite.created_at)}</td>
                <td data-label={t('manage.invites.columns.usedBy')}>{invite.used_by_username ?? invite.used_by ?? t('manage.common.never')}</td>
                <td data-label={t('manage.invites.columns.usedAt')}>{date(invite.used_at)}</td>
                <td className="col-actions">
                  <button className="button button-secondary button-small" type="button" onClick={() => copy(invite)} aria-label={`${t('manage.invites.copy')} ${invite.code}`}>
                    {copied === invite.code ? <CheckIcon size={14} /> : <CopyIcon size={14} />}
                    {copied === invite.code ? t('manage.invites.copied') : t('manage.invites.copy')}
                  </button>
                  {invite.status === 'unused' && (
                    <button className="button button-secondary button-small" type="button" onClick={() => setRevoking(invite)} aria-label={`${t('manage.invites.revoke')} ${invite.code}`}>
                      <BanIcon size={14} />
                      {t('manage.invites.revoke')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {invites.data && <Pager total={invites.data.total} skip={skip} limit={PAGE_SIZE} onSkip={setSkip} />}
      {revoking && (
        <ConfirmDialog
          title={t('manage.invites.revokeTitle')}
          text={t('manage.invites.revokeText', { code: revoking.code })}
          confirmLabel={t('manage.invites.revoke')}
          onConfirm={() => revoke.mutateAsync(revoking.code).catch(() => undefined)}
          onClose={() => setRevoking(null)}
        />
      )}
    </div>
  );
}
