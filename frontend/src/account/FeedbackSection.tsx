import { useMachine } from '@xstate/react';
import { createElement, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { accountApi } from './api.ts';
import { FEEDBACK_TYPES } from '@scriptorium/domain/protocol/limits';
import { canSend, FEEDBACK_ROWS, feedbackMachine, type FeedbackKind } from './machines/feedback.ts';
import { BugIcon, CheckIcon, LightbulbIcon, MessageCircleIcon, SendIcon, type IconComponent } from '../ui/icons.ts';
import { AccountCardHead } from './AccountCardHead.tsx';

const TYPE_ICONS: Record<FeedbackKind, IconComponent> = { bug: BugIcon, feature: LightbulbIcon, general: MessageCircleIcon };

export function FeedbackSection() {
  const { t } = useTranslation('account');
  const textId = useId();
  const machine = useMemo(
    () =>
      feedbackMachine.provide({
        actors: { sendFeedback: fromPromise(({ input }) => accountApi.sendFeedback(input.feedback_type, input.feedback_text)) },
      }),
    [],
  );
  const [snapshot, send] = useMachine(machine);
  const { feedbackType, text } = snapshot.context;
  const formOpen = snapshot.matches('editing') || snapshot.matches('sending');
  const sending = snapshot.matches('sending');

  return (
    <section className="account-card account-feedback">
      <AccountCardHead icon={<MessageCircleIcon />} title={t('feedback.title')}>
        <span className="account-card-note">{t('feedback.intro')}</span>
      </AccountCardHead>
      {snapshot.matches('sent') && (
        <p className="account-notice account-notice-success" role="status">
          <CheckIcon size={15} />
          {t('feedback.success')}
        </p>
      )}
      <div className="feedback-types" role="group" aria-label={t('feedback.title')}>
        {FEEDBACK_TYPES.map((type) => (
          <button
            key={type}
            type="button"
            className={`feedback-type${feedbackType === type ? ' feedback-type-active' : ''}`}
            aria-pressed={feedbackType === type}
            disabled={sending}
            onClick={() => send({ type: 'feedback.choose', feedbackType: type })}
          >
            {createElement(TYPE_ICONS[type], { size: 18 })}
            <span className="feedback-type-text">
              <strong>{t(`feedback.types.${type}`)}</strong>
              <span>{t(`feedback.typeHints.${type}`)}</span>
            </span>
          </button>
        ))}
      </div>
      {formOpen && feedbackType && (
        <form
          className="feedback-form"
          onSubmit={(event) => {
            event.preventDefault();
            send({ type: 'feedback.send' });
          }}
        >
          <label className="sr-only" htmlFor={textId}>
            {t('feedback.textLabel')}
          </label>
          <textarea
            id={textId}
            rows={FEEDBACK_ROWS}
            value={text}
            placeholder={t(`feedback.placeholder.${feedbackType}`)}
            onChange={(event) => send({ type: 'feedback.type', value: event.target.value })}
            readOnly={sending}
            autoFocus
          />
          <div className="feedback-actions">
            <button className="button button-secondary button-small" type="button" onClick={() => send({ type: 'feedback.cancel' })} disabled={sending}>
              {t('feedback.cancel')}
            </button>
            <button className="button button-primary button-small" type="submit" disabled={!canSend(text) || sending}>
              <SendIcon size={14} />
              {sending ? t('feedback.sending') : t('feedback.send')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
