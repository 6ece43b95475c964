import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ENDED_STATUSES, type EngineerCommandDto, type EngineerCommandType, type EngineerNode, type EngineerSessionStatus } from '@scriptorium/domain/protocol/engineer';
import { engineerApi } from './api.ts';
import { useApiMutation } from '../api/query.ts';
import { Select } from '../ui/Select.tsx';
import { SendIcon } from '../ui/icons.ts';
import { proposedCommand } from './tree.ts';

/** What the box sends; a proposal's answers have their own buttons (`Proposals`). */
type Typed = Extract<EngineerCommandType, 'message' | 'run' | 'stop'>;

/**
 * Steers the agent: input goes over the socket (the spec's `user_input`), a command to run or a
 * stop over HTTP; what happens to each shows in the list as the agent takes it and answers.
 */
export function CommandBox({
  sessionId,
  status,
  commands,
  nodes,
  sendInput,
}: {
  sessionId: string;
  status: EngineerSessionStatus | null;
  commands: readonly EngineerCommandDto[];
  nodes: ReadonlyMap<string, EngineerNode>;
  sendInput: (text: string) => boolean;
}) {
  const { t } = useTranslation('engineer');
  const [kind, setKind] = useState<Typed>('message');
  const [text, setText] = useState('');
  const sending = useApiMutation({
    mutationFn: async ({ typed, content }: { typed: Typed; content: string }) => {
      await engineerApi.send(sessionId, typed, content);
      // The agent hears the stop as a command; the session ends now even if no agent is listening.
      if (typed === 'stop') await engineerApi.stop(sessionId);
    },
    onSuccess: () => setText(''),
  });
  const ended = status !== null && ENDED_STATUSES.includes(status);

  function submit(event: FormEvent) {
    event.preventDefault();
    const content = text.trim();
    if (kind !== 'stop' && content === '') return;
    if (kind === 'message' && sendInput(content)) {
      sending.reset();
      setText('');
    } else sending.mutate({ typed: kind, content });
  }

  return (
    <section className="engineer-commands">
      <h3>{t('commands.title')}</h3>
      {commands.length === 0 ? (
        <p className="muted">{t('commands.none')}</p>
      ) : (
        <ol className="engineer-command-list">
          {commands.slice(-5).map((command) => (
            <li key={command.id}>
              <span className="engineer-type">{t(`box.${command.command_type}`)}</span>
              {/* An approval names its proposal by node id; the person reads the command it answered. */}
              <code>{(command.command_type === 'approve' || command.command_type === 'reject' ? proposedCommand(nodes, command.content) : null) ?? command.content}</code>
              <span className={`engineer-node-status is-${command.result?.status ?? 'pending'}`}>
                {command.result ? t(`nodeStatus.${command.result.status}`) : ended ? t('commands.unanswered') : command.delivered_to.length > 0 ? t('commands.delivered') : t('commands.waiting')}
              </span>
            </li>
          ))}
        </ol>
      )}
      {ended ? (
        <p className="muted">{t('box.ended')}</p>
      ) : (
        <form className="engineer-box" onSubmit={submit}>
          <Select<Typed>
            label={t('box.kind')}
            value={kind}
            onChange={setKind}
            options={(['message', 'run', 'stop'] as const).map((value) => ({ value, label: t(`box.${value}`) }))}
          />
          <input className="input" aria-label={t(`box.placeholder.${kind}`)} placeholder={t(`box.placeholder.${kind}`)} value={text} disabled={kind === 'stop'} onChange={(event) => setText(event.target.value)} />
          <button type="submit" className="button button-primary" disabled={sending.isPending || (kind !== 'stop' && text.trim() === '')}>
            <SendIcon size={16} />
            {kind === 'stop' ? t('box.stopConfirm') : t('box.send')}
          </button>
        </form>
      )}
      {sending.error && (
        <p role="alert" className="engineer-error">
          {sending.error.userMessage}
        </p>
      )}
    </section>
  );
}
