import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { useAuth } from '../app/auth/index.ts';
import { fullPath } from '../app/guard.ts';
import { Icon } from '../components/Icon.tsx';
import { canClose } from '../research/sessions.ts';
import { researchStore, useResearch } from '../research/store.ts';

/** Open sessions and cloud history; collapsed, the open sessions as icons only. */
const shortDate = (timestamp: string, language: string) => {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? '' : new Intl.DateTimeFormat(language === 'en' ? 'en' : 'zh-CN', { month: 'numeric', day: 'numeric' }).format(date);
};

export function SessionSidebar({ collapsed }: { collapsed: boolean }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const { user } = useAuth();
  const { sessions, activeId, cloud } = useResearch();
  const [editing, setEditing] = useState<{ id: string; value: string } | null>(null);
  const [creating, setCreating] = useState(false);
  const open = sessions.filter((session) => !session.readOnly);
  const openIds = open.map((session) => session.id);

  const create = async () => {
    setCreating(true);
    try {
      await researchStore.create({ activate: true, preset: 'home-welcome' });
    } catch (error) {
      researchStore.fail(error);
    } finally {
      setCreating(false);
    }
  };

  if (!user) {
    if (collapsed) return null;
    return (
      <div className="sub-panel-note">
        <Icon name="lock" size={16} />
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
        <button type="button" className="icon-button" title={t('sessions.new')} aria-label={t('sessions.new')} disabled={creating} onClick={() => void create()}>
          <Icon name="plus" size={18} />
        </button>
        {open.map((session) => (
          <button
            key={session.id}
            type="button"
            className={`session-icon${session.id === activeId ? ' active' : ''}`}
            title={session.title ?? session.name}
            aria-label={session.title ?? session.name}
            disabled={session.restoring}
            onClick={() => researchStore.switchTo(session.id)}
          >
            {session.restoring ? <span className="spinner spinner-small" /> : [...(session.title ?? session.name ?? '?')][0]}
          </button>
        ))}
      </div>
    );
  }

  return (
    <div className="session-sidebar" data-guide="sessions">
      <div className="session-section-head">
        <span>{t('sessions.open')}</span>
        <button type="button" className="button button-secondary button-small" disabled={creating} onClick={() => void create()}>
          {creating ? <span className="spinner spinner-small" /> : <Icon name="plus" size={14} />}
          {t('sessions.new')}
        </button>
      </div>
      <ul className="session-list">
        {open.map((session) => {
          const label = session.title || session.name || t('sessions.unnamed');
          return (
            <li key={session.id} className={`session-item${session.id === activeId ? ' active' : ''}${session.restoring ? ' restoring' : ''}`}>
              {editing?.id === session.id ? (
                <form
                  className="session-rename"
                  onSubmit={(event) => {
                    event.preventDefault();
                    void researchStore.rename(session.id, editing.value);
                    setEditing(null);
                  }}
                >
                  <input
                    autoFocus
                    value={editing.value}
                    aria-label={t('sessions.rename')}
                    onChange={(event) => setEditing({ id: session.id, value: event.target.value })}
                    onBlur={() => {
                      void researchStore.rename(session.id, editing.value);
                      setEditing(null);
                    }}
                    onKeyDown={(event) => event.key === 'Escape' && setEditing(null)}
                  />
                </form>
              ) : (
                <button type="button" className="session-select" disabled={session.restoring} aria-current={session.id === activeId ? 'true' : undefined} onClick={() => researchStore.switchTo(session.id)} title={label}>
                  {session.restoring ? <span className="spinner spinner-small" /> : <Icon name={session.mode === 0 ? 'chat' : 'cognition'} size={14} />}
                  <span className="session-label">{label}</span>
                  {session.conversation.busy && <span className="busy-dot" aria-label={t('sessions.busy')} />}
                </button>
              )}
              <span className="session-actions">
                <button type="button" className="icon-button tiny" title={t('sessions.rename')} aria-label={t('sessions.rename')} disabled={session.restoring} onClick={() => setEditing({ id: session.id, value: session.name })}>
                  <Icon name="edit" size={12} />
                </button>
                <button type="button" className="icon-button tiny" title={t('sessions.close')} aria-label={t('sessions.close')} disabled={!canClose(openIds) || session.restoring} onClick={() => void researchStore.close(session.id)}>
                  <Icon name="close" size={12} />
                </button>
              </span>
            </li>
          );
        })}
      </ul>
      <div className="session-section-head">
        <span>
          <Icon name="history" size={14} /> {t('sessions.cloud')}
        </span>
      </div>
      {cloud.status === 'loading' && cloud.chats.length === 0 ? (
        <p className="muted small pad">{t('app.loading')}</p>
      ) : cloud.status === 'error' ? (
        <p className="muted small pad">{t('sessions.cloudFailed')}</p>
      ) : cloud.chats.length === 0 ? (
        <p className="muted small pad">{t('sessions.cloudEmpty')}</p>
      ) : (
        <ul className="session-list cloud">
          {cloud.chats.map((chat) => (
            <li key={chat.id} className={`session-item${chat.id === activeId ? ' active' : ''}`}>
              <button
                type="button"
                className="session-select"
                onClick={() => void researchStore.loadRemote(chat.id, true).catch((error: unknown) => researchStore.fail(error))}
                title={chat.title ?? chat.prompt ?? ''}
              >
                <span className="session-label">{chat.title || chat.prompt || t('sessions.unnamed')}</span>
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
