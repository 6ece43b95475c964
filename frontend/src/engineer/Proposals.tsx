import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ENDED_STATUSES, type EngineerCommandDto, type EngineerNode, type EngineerSessionStatus } from '@scriptorium/domain/protocol/engineer';
import { engineerApi } from '../api/engineer.ts';
import { toApiError } from '../api/client.ts';
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
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const proposals = useMemo(() => openProposals(nodes), [nodes]);
  // An ended session takes no answers: a proposal its agent left unanswered stays in the tree only.
  if (proposals.length === 0 || (status !== null && ENDED_STATUSES.includes(status))) return null;
  const sent = new Set(commands.filter((command) => command.command_type === 'approve' || command.command_type === 'reject').map((command) => command.content));

  async function answer(id: string, kind: 'approve' | 'reject') {
    setBusy(id);
    setError(null);
    try {
      await engineerApi.send(sessionId, kind, id);
    } catch (failure) {
      setError(toApiError(failure).userMessage);
    } finally {
      setBusy(null);
    }
  }

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
              <button type="button" className="button button-primary" disabled={busy !== null} onClick={() => void answer(id, 'approve')}>
                {t('proposal.approve')}
              </button>
              <button type="button" className="button button-secondary" disabled={busy !== null} onClick={() => void answer(id, 'reject')}>
                {t('proposal.reject')}
              </button>
            </div>
          )}
        </div>
      ))}
      {error && (
        <p role="alert" className="engineer-error">
          {error}
        </p>
      )}
    </section>
  );
}
