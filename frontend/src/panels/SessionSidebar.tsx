import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { useAuth } from '../app/auth/index.ts';
import { fullPath } from '../app/guard.ts';
import { queryKeys, useApiQuery } from '../api/query.ts';
import { research } from '../api/research.ts';
import type { CloudChat } from '@scriptorium/domain/protocol/http/conversation';
import { isRestoring, type ResearchSessionRef, type ResearchSessionSnapshot } from '../machines/researchSession.ts';
import { CLOUD_HISTORY_PAGE, researchWorkspace, useSessionView } from '../research/live.ts';
import { canClose } from '../research/sessions.ts';
import { HistoryIcon, LightbulbIcon, LockIcon, MessageSquareIcon, PlusIcon, SquarePenIcon, XIcon } from '../ui/icons.ts';
import { useSessionLabel } from '../research/useSessionLabel.ts';
import './research.css';
import { intlLocale } from '../i18n/language.ts';

/** Open sessions and cloud history; collapsed, the open sessions as icons only. */
const shortDate = (timestamp: string, language: string) => {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? '' : new Intl.DateTimeFormat(intlLocale(language), { month: 'numeric', day: 'numeric' }).format(date);
};

/** Cloud history, newest first; empty sessions are not history (each new session starts empty). */
const historyOf = (chats: CloudChat[]): CloudChat[] => chats.filter((chat) => chat.message_count > 0).sort((a, b) => b.created_at.localeCompare(a.created_at));

export function SessionSidebar({ collapsed }: { collapsed: boolean }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const { user } = useAuth();
  const sessions = useSelector(researchWorkspace, (snapshot) => snapshot.context.sessions);
  const activeId = useSelector(researchWorkspace, (snapshot) => snapshot.context.activeId);
  const creating = useSelector(researchWorkspace, (snapshot) => snapshot.matches('creating') || snapshot.matches('settling'));
  const cloud = useApiQuery({ queryKey: queryKeys.cloudHistory, queryFn: () => research.myChats(0, CLOUD_HISTORY_PAGE), enabled: user !== null, select: (page) => historyOf(page.chats) });
  const [editing, setEditing] = useState<{ id: string; value: string } | null>(null);
  const closable = canClose(sessions.map((session) => session.id));
  const create = () => creating || researchWorkspace.send({ type: 'session.create' });
  const label = useSessionLabel();
  const list = useRef<HTMLUListElement>(null);
  // A row closed from the keyboard takes its focus with it: the session shown next gets it.
  const refocusAfterClose = useRef(false);
  useEffect(() => {
    if (!refocusAfterClose.current) return;
    refocusAfterClose.current = false;
    list.current?.querySelector<HTMLButtonElement>('.session-item.active .session-select, .session-select')?.focus();
  }, [sessions.length, activeId]);

  if (!user) {
    if (collapsed) return null;
    return (
      <div className="sub-panel-note">
        <LockIcon size={16} />
        <div>
          <p>{t('subPanel.research.signInToView')}</p>
          <Link className="button button-primary button-small" to={`/login?redirect=${encodeURIComponent(fullPath(location))}`}>
            {t('user.signIn')}
          </Link>
        </div>
      </div>
    );
  }

  if (collapsed) {
    return (
      <div className="session-icons" data-guide="sessions">
        <button type="button" className="icon-button" title={t('sessions.new')} aria-label={t('sessions.new')} disabled={creating} onClick={create}>
          <PlusIcon size={18} />
        </button>
        {sessions.map((session) => (
          <SessionIcon key={session.id} session={session} active={session.id === activeId} />
        ))}
      </div>
    );
  }

  return (
    <div className="session-sidebar" data-guide="sessions">
      <div className="session-section-head">
        <span>{t('sessions.open')}</span>
        <button type="button" className="button button-secondary button-small" aria-disabled={creating} onClick={create}>
          {creating ? <span className="spinner spinner-small" /> : <PlusIcon size={14} />}
          {t('sessions.new')}
        </button>
      </div>
      <ul className="session-list" ref={list}>
        {sessions.map((session) => (
          <SessionRow
            key={session.id}
            session={session}
            active={session.id === activeId}
            closable={closable}
            editing={editing?.id === session.id ? editing.value : null}
            onEdit={(value) => setEditing(value === null ? null : { id: session.id, value })}
            onClose={() => {
              refocusAfterClose.current = list.current?.contains(document.activeElement) ?? false;
              researchWorkspace.send({ type: 'session.close', id: session.id });
            }}
          />
        ))}
      </ul>
      <div className="session-section-head">
        <span>
          <HistoryIcon size={14} /> {t('sessions.cloud')}
        </span>
      </div>
      {cloud.isPending ? (
        <p className="muted small pad">{t('app.loading')}</p>
      ) : cloud.isError ? (
        <p className="muted small pad">{t('sessions.cloudFailed')}</p>
      ) : cloud.data.length === 0 ? (
        <p className="muted small pad">{t('sessions.cloudEmpty')}</p>
      ) : (
        <ul className="session-list cloud">
          {cloud.data.map((chat) => (
            <li key={chat.id} className={`session-item${chat.id === activeId ? ' active' : ''}`}>
              <button type="button" className="session-select" onClick={() => researchWorkspace.send({ type: 'session.open', id: chat.id })} title={chat.title ?? chat.prompt ?? ''}>
                <span className="session-label">{chat.title ? label({ title: chat.title, name: '' }) : chat.prompt || t('sessions.unnamed')}</span>
                <time className="muted small" dateTime={chat.created_at}>
                  {shortDate(chat.created_at, i18n.language)}
                </time>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What a row of the list shows of its session: a reply streaming into it re-renders the row only when this changes. */
const rowView = (snapshot: ResearchSessionSnapshot) => ({
  title: snapshot.context.title,
  name: snapshot.context.name,
  mode: snapshot.context.mode,
  busy: snapshot.context.conversation.busy,
  restoring: isRestoring(snapshot),
});

function SessionIcon({ session, active }: { session: ResearchSessionRef; active: boolean }) {
  const { restoring, ...context } = useSessionView(session, rowView)!;
  const label = useSessionLabel()(context);
  return (
    <button type="button" className={`session-icon${active ? ' active' : ''}`} title={label} aria-label={label} disabled={restoring} onClick={() => researchWorkspace.send({ type: 'session.switch', id: session.id })}>
      {restoring ? <span className="spinner spinner-small" /> : [...label][0]}
    </button>
  );
}

function SessionRow({ session, active, closable, editing, onEdit, onClose }: { session: ResearchSessionRef; active: boolean; closable: boolean; editing: string | null; onEdit(value: string | null): void; onClose(): void }) {
  const { t } = useTranslation();
  const renameButton = useRef<HTMLButtonElement>(null);
  /** Set once a rename is committed or cancelled: moving focus away afterwards blurs the field again. */
  const ended = useRef(false);
  /** Enter and Escape end the rename where it began; a click elsewhere leaves focus where it went. */
  const endFromKeyboard = () => renameButton.current?.focus();
  const { restoring, ...context } = useSessionView(session, rowView)!;
  const label = useSessionLabel()(context);
  const commit = () => {
    if (ended.current) return;
    ended.current = true;
    if (editing !== null) session.send({ type: 'settings.rename', input: editing });
    onEdit(null);
  };
  const cancel = () => {
    ended.current = true;
    onEdit(null);
  };
  return (
    <li className={`session-item${active ? ' active' : ''}${restoring ? ' restoring' : ''}`}>
      {editing !== null ? (
        <form
          className="session-rename"
          onSubmit={(event) => {
            event.preventDefault();
            commit();
            endFromKeyboard();
          }}
        >
          <input
            autoFocus
            value={editing}
            aria-label={t('sessions.rename')}
            onFocus={(event) => event.currentTarget.select()}
            onChange={(event) => onEdit(event.target.value)}
            onBlur={commit}
            onKeyDown={(event) => {
              if (event.key !== 'Escape') return;
              cancel();
              endFromKeyboard();
            }}
          />
        </form>
      ) : (
        <button type="button" className="session-select" disabled={restoring} aria-current={active ? 'true' : undefined} onClick={() => researchWorkspace.send({ type: 'session.switch', id: session.id })} title={label}>
          {restoring ? <span className="spinner spinner-small" /> : context.mode === 0 ? <MessageSquareIcon size={14} /> : <LightbulbIcon size={14} />}
          <span className="session-label">{label}</span>
          {context.busy && <span className="busy-dot" aria-label={t('sessions.busy')} />}
        </button>
      )}
      <span className="session-actions">
        <button
          ref={renameButton}
          type="button"
          className="icon-button tiny"
          title={t('sessions.rename')}
          aria-label={t('sessions.rename')}
          disabled={restoring}
          onClick={() => {
            ended.current = false;
            onEdit(label);
          }}
        >
          <SquarePenIcon size={12} />
        </button>
        <button type="button" className="icon-button tiny" title={t('sessions.close')} aria-label={t('sessions.close')} disabled={!closable || restoring} onClick={onClose}>
          <XIcon size={12} />
        </button>
      </span>
    </li>
  );
}
