import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ENDED_STATUSES, type EngineerCommandDto, type EngineerNode, type EngineerSessionStatus } from '@scriptorium/domain/protocol/engineer';
import { engineerApi } from './api.ts';
import { useApiMutation } from '../api/query.ts';
import { openProposals } from './tree.ts';

/**
 * Asks the person watching to approve or decline each proposed command: it runs in their own
 * terminal, unsandboxed. An answer given in the terminal first takes the proposal off, live.
 */
export function Proposals({
  sessionId,
  status,
  nodes,
  commands,
}: {
  sessionId: string;
  status: EngineerSessionStatus | null;
  nodes: ReadonlyMap<string, EngineerNode>;
  commands: readonly EngineerCommandDto[];
}) {
  const { t } = useTranslation('engineer');
  const answering = useApiMutation({ mutationFn: ({ id, kind }: { id: string; kind: 'approve' | 'reject' }) => engineerApi.send(sessionId, kind, id) });
  const proposals = useMemo(() => openProposals(nodes), [nodes]);
  // An ended session takes no answers: a proposal its agent left unanswered stays in the tree only.
  if (proposals.length === 0 || (status !== null && ENDED_STATUSES.includes(status))) return null;
  const sent = new Set(commands.filter((command) => command.command_type === 'approve' || command.command_type === 'reject').map((command) => command.content));

  return (
    <section className="engineer-proposals" aria-label={t('proposal.title')}>
      {proposals.map(({ id, command }) => (
        <div key={id} className="engineer-proposal" role="group" aria-label={t('proposal.title')}>
          <div className="engineer-proposal-text">
            <strong>{t('proposal.title')}</strong>
            <code>{command}</code>
            <span className="muted">{sent.has(id) ? t('proposal.answered') : t('proposal.hint')}</span>
          </div>
          {!sent.has(id) && (
            <div className="engineer-proposal-actions">
              <button type="button" className="button button-primary" disabled={answering.isPending} onClick={() => answering.mutate({ id, kind: 'approve' })}>
                {t('proposal.approve')}
              </button>
              <button type="button" className="button button-secondary" disabled={answering.isPending} onClick={() => answering.mutate({ id, kind: 'reject' })}>
                {t('proposal.reject')}
              </button>
            </div>
          )}
        </div>
      ))}
      {answering.error && (
        <p role="alert" className="engineer-error">
          {answering.error.userMessage}
        </p>
      )}
    </section>
  );
}
