import { useState, type FormEvent, type ReactNode } from 'react';
import { queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { useTranslation } from 'react-i18next';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { adminApi, type FeedbackItem, type OutboxMail } from './api.ts';
import { Notice, Pager, useDateFormat, type Load, type NoticeState } from './shared.tsx';
import { InfoIcon, RefreshCwIcon, SendIcon } from '../ui/icons.ts';
import { FEEDBACK_TYPES } from '@scriptorium/domain/protocol/limits';

const PAGE_SIZE = 20;

export function MailTab() {
  const { t } = useTranslation('account');
  const [form, setForm] = useState({ to: '', subject: '', content: '' });
  const [notice, setNotice] = useState<NoticeState>(null);
  const sending = useApiMutation({
    mutationFn: (mail: { to: string; subject: string; content: string }) => adminApi.sendEmail(mail.to, mail.subject, mail.content),
    onMutate: () => setNotice(null),
    onSuccess: (_, mail) => {
      setNotice({ kind: 'success', text: t('manage.mail.sent', { to: mail.to }) });
      setForm({ to: '', subject: '', content: '' });
    },
    onError: (error) => setNotice({ kind: 'error', error }),
  });

  function send(event: FormEvent) {
    event.preventDefault();
    sending.mutate({ to: form.to.trim(), subject: form.subject.trim(), content: form.content });
  }

  const blank = form.to.trim() === '' || form.subject.trim() === '' || form.content.trim() === '';
  return (
    <form className="manage-panel mail-form" onSubmit={send}>
      <Notice notice={notice} onDismiss={() => setNotice(null)} />
      <label className="editor-field">
        <span>{t('manage.mail.to')}</span>
        <input className="input" type="email" value={form.to} onChange={(event) => setForm((current) => ({ ...current, to: event.target.value }))} placeholder="name@example.com" required />
      </label>
      <label className="editor-field">
        <span>{t('manage.mail.subject')}</span>
        <input className="input" value={form.subject} maxLength={200} onChange={(event) => setForm((current) => ({ ...current, subject: event.target.value }))} required />
      </label>
      <label className="editor-field">
        <span>{t('manage.mail.content')}</span>
        <textarea className="input" rows={10} value={form.content} onChange={(event) => setForm((current) => ({ ...current, content: event.target.value }))} required />
      </label>
      <div className="form-actions">
        <button className="button button-primary" type="submit" disabled={sending.isPending || blank}>
          <SendIcon size={15} />
          {sending.isPending ? t('manage.mail.sending') : t('manage.mail.send')}
        </button>
      </div>
    </form>
  );
}

function MessageList<T>({ load, items, empty, render }: { load: Load<unknown>; items: T[]; empty: string; render: (item: T) => ReactNode }) {
  const { t } = useTranslation('account');
  if (load.error && items.length === 0) return <ErrorBanner error={load.error} />;
  if (items.length === 0) return <p className="muted table-message">{load.isFetching ? t('manage.common.loading') : empty}</p>;
  return <ul className="card-list message-list">{items.map(render)}</ul>;
}

export function FeedbackTab() {
  const { t } = useTranslation('account');
  const date = useDateFormat();
  const [type, setType] = useState<FeedbackItem['feedback_type'] | ''>('');
  const [skip, setSkip] = useState(0);
  const feedback = useApiQuery({ queryKey: queryKeys.manage('feedback', `${skip}:${type}`), queryFn: () => adminApi.feedback(skip, PAGE_SIZE, type || undefined) });
  return (
    <div className="manage-panel">
      <div className="manage-toolbar">
        <div className="segmented" role="group" aria-label={t('manage.tabs.feedback')}>
          {(['', ...FEEDBACK_TYPES] as const).map((value) => (
            <button
              key={value || 'all'}
              type="button"
              className={type === value ? 'active' : undefined}
              aria-pressed={type === value}
              onClick={() => {
                setType(value);
                setSkip(0);
              }}
            >
              {value === '' ? t('manage.feedback.allTypes') : t(`feedback.types.${value}`)}
            </button>
          ))}
        </div>
        <button className="button button-secondary button-small toolbar-end" type="button" onClick={() => void feedback.refetch()}>
          <RefreshCwIcon size={14} />
          {t('manage.common.refresh')}
        </button>
      </div>
      <MessageList
        load={feedback}
        items={feedback.data?.feedback ?? []}
        empty={t('manage.feedback.empty')}
        render={(item) => (
          <li key={item.id} className="message">
            <div className="message-head">
              <span className={`mini-badge feedback-badge-${item.feedback_type}`}>{t(`feedback.types.${item.feedback_type}`)}</span>
              <strong>{item.username}</strong>
              <span className="muted">{item.email}</span>
              <span className="muted message-time">{date(item.created_at)}</span>
            </div>
            <p className="message-text">{item.feedback_text}</p>
          </li>
        )}
      />
      {feedback.data && feedback.data.total > 0 && <Pager total={feedback.data.total} skip={skip} limit={PAGE_SIZE} onSkip={setSkip} />}
    </div>
  );
}

export function OutboxTab() {
  const { t } = useTranslation('account');
  const date = useDateFormat();
  const [skip, setSkip] = useState(0);
  const outbox = useApiQuery({ queryKey: queryKeys.manage('outbox', String(skip)), queryFn: () => adminApi.outbox(skip, PAGE_SIZE) });
  return (
    <div className="manage-panel">
      <div className="manage-toolbar">
        <p className="dev-note">
          <InfoIcon size={15} />
          {t('manage.outbox.note')}
        </p>
        <button className="button button-secondary button-small toolbar-end" type="button" onClick={() => void outbox.refetch()}>
          <RefreshCwIcon size={14} />
          {t('manage.common.refresh')}
        </button>
      </div>
      <MessageList
        load={outbox}
        items={outbox.data?.mails ?? []}
        empty={t('manage.outbox.empty')}
        render={(mail: OutboxMail) => (
          <li key={mail.id} className="message">
            <div className="message-head">
              <strong>{mail.subject}</strong>
              <span className="muted">
                {t('manage.outbox.to')}: {mail.to.join(', ')}
              </span>
              <span className="muted message-time">{date(mail.created_at)}</span>
            </div>
            <pre className="message-text">{mail.text}</pre>
          </li>
        )}
      />
      {outbox.data && outbox.data.total > 0 && <Pager total={outbox.data.total} skip={skip} limit={PAGE_SIZE} onSkip={setSkip} />}
    </div>
  );
}
