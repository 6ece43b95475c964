import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { COLLAB_LIMITS, type CollabDocDto, type CollabDocSummaryDto, type CollabPeer } from '@scriptorium/domain/protocol/collab';
import { collabApi } from './api.ts';
import { queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { CollabEditor, PresenceAvatars, type CollabLive } from './CollabEditor.tsx';
import { HistoryPanel } from './HistoryPanel.tsx';
import { InviteDialog } from './InviteDialog.tsx';
import { MembersDialog } from './MembersDialog.tsx';
import '../ui/listDetail.css';
import './collab.css';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { PageLoading } from '../components/PageState.tsx';
import { ArrowLeftIcon, CheckIcon, FileTextIcon, HistoryIcon, PenLineIcon, PlusIcon, UserPlusIcon, UsersIcon, XIcon } from '../ui/icons.ts';
import type { Node } from 'prosemirror-model';
import { research } from '../api/research.ts';
import { docToReport } from './markdown.ts';
import { Tooltip } from '../ui/Tooltip.tsx';

function CreateForm({ onCreated }: { onCreated: (doc: CollabDocSummaryDto) => void }) {
  const { t } = useTranslation('collab');
  const [title, setTitle] = useState('');
  const create = useApiMutation({
    mutationFn: (name: string) => collabApi.create(name),
    onSuccess: (doc) => {
      setTitle('');
      onCreated(doc);
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(title);
  }
  return (
    <form className="collab-create" onSubmit={submit}>
      <label className="field">
        <span>{t('create.label')}</span>
        <input value={title} maxLength={COLLAB_LIMITS.title} placeholder={t('create.placeholder')} onChange={(event) => setTitle(event.target.value)} required />
      </label>
      <button type="submit" className="button button-primary button-small" disabled={create.isPending || title.trim() === ''}>
        <PlusIcon size={14} />
        {t('create.submit')}
      </button>
      {create.error && <ErrorBanner error={create.error} />}
    </form>
  );
}

function DocList({ docs, selected }: { docs: CollabDocSummaryDto[] | undefined; selected: string | undefined }) {
  const { t } = useTranslation('collab');
  const queries = useQueryClient();
  const navigate = useNavigate();
  return (
    <nav className="list-detail-list collab-docs" aria-label={t('mine')}>
      <CreateForm
        onCreated={(doc) => {
          void queries.invalidateQueries({ queryKey: queryKeys.collab('docs') });
          navigate(`/collaboration/${doc.id}`);
        }}
      />
      <h2>{t('mine')}</h2>
      {docs?.length === 0 && (
        <div className="collab-empty">
          <p>{t('empty')}</p>
          <p className="muted">{t('emptyHint')}</p>
        </div>
      )}
      <ul>
        {docs?.map((doc) => (
          <li key={doc.id}>
            <Link to={`/collaboration/${doc.id}`} className={doc.id === selected ? 'is-selected' : ''} aria-current={doc.id === selected ? 'page' : undefined}>
              <strong>{doc.title}</strong>
              <span className="collab-doc-meta">
                {doc.report && <span className="collab-access is-report">{t('report.badge')}</span>}
                <span className={`collab-access is-${doc.access}`}>{t(`access.${doc.access}`)}</span>
                <span className="muted">{t('members', { count: doc.member_count })}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Someone new here may have just joined by a link: the list's member counts are read again. */
function MembersRefresh({ peers }: { peers: CollabPeer[] }) {
  const queries = useQueryClient();
  const present = [...new Set(peers.map((peer) => peer.user_id))].sort().join(',');
  useEffect(() => {
    if (present !== '') void queries.invalidateQueries({ queryKey: queryKeys.collab('docs') });
  }, [present, queries]);
  return null;
}

/**
 * The list follows what the socket says: a new title shows there too, and a document this member lost
 * (removed by its owner) leaves it.
 */
function ListRefresh({ title, closedBy }: Pick<CollabLive, 'title' | 'closedBy'>) {
  const queries = useQueryClient();
  useEffect(() => {
    void queries.invalidateQueries({ queryKey: queryKeys.collab('docs') });
  }, [title, closedBy, queries]);
  return null;
}

/** The title, and for its owner a rename in place (the same rules as a new title; every member sees the new one live). */
function DocTitle({ docId, title, owner }: { docId: string; title: string; owner: boolean }) {
  const { t } = useTranslation('collab');
  const queries = useQueryClient();
  const [draft, setDraft] = useState<string | null>(null);
  const rename = useApiMutation({
    mutationFn: (next: string) => collabApi.rename(docId, next),
    onSuccess: () => {
      setDraft(null);
      void queries.invalidateQueries({ queryKey: queryKeys.collab('docs') });
    },
  });
  if (draft === null)
    return (
      <>
        <h2 className="collab-doc-title">{title}</h2>
        {owner && (
          <Tooltip label={t('rename.open')}>
            <button type="button" className="icon-button" aria-label={t('rename.open')} onClick={() => setDraft(title)}>
              <PenLineIcon size={14} />
            </button>
          </Tooltip>
        )}
      </>
    );
  function submit(event: FormEvent) {
    event.preventDefault();
    rename.mutate(draft ?? '');
  }
  return (
    <form className="collab-rename" onSubmit={submit}>
      <input className="input" value={draft} maxLength={COLLAB_LIMITS.title} aria-label={t('rename.label')} autoFocus onChange={(event) => setDraft(event.target.value)} onKeyDown={(event) => event.key === 'Escape' && setDraft(null)} />
      <button type="submit" className="button button-primary button-small" disabled={rename.isPending}>
        <CheckIcon size={14} />
        {t('rename.save')}
      </button>
      <button type="button" className="button button-secondary button-small" onClick={() => setDraft(null)}>
        <XIcon size={14} />
        {t('rename.cancel')}
      </button>
      {rename.error && <ErrorBanner error={rename.error} />}
    </form>
  );
}

/** The owner of a co-edited report writes the shared document back into the report's canvas, as its next version. */
function SaveToReport({ sessionId, currentDoc }: { sessionId: string; currentDoc: () => Node | null }) {
  const { t } = useTranslation('collab');
  const save = useApiMutation({
    mutationFn: async (doc: Node) => {
      const canvas = await research.canvas(sessionId);
      return research.saveCanvas(sessionId, { content: docToReport(doc), from_version: canvas.currentVersion ?? 1 });
    },
  });
  return (
    <>
      <button
        type="button"
        className="button button-secondary button-small"
        disabled={save.isPending}
        onClick={() => {
          const doc = currentDoc();
          if (doc) save.mutate(doc);
        }}
      >
        <FileTextIcon size={14} />
        {save.isPending ? t('report.saving') : t('report.save')}
      </button>
      {save.isSuccess && (
        <span className="collab-saved" role="status">
          {t('report.saved', { version: save.data.currentVersion ?? 0 })}
        </span>
      )}
      {save.error && <ErrorBanner error={save.error} />}
    </>
  );
}

function DocView({ doc }: { doc: CollabDocDto }) {
  const { t } = useTranslation('collab');
  const [inviting, setInviting] = useState(false);
  const [people, setPeople] = useState(false);
  const [history, setHistory] = useState(false);
  return (
    <CollabEditor
      doc={doc}
      replacement={history ? <HistoryPanel docId={doc.id} /> : undefined}
      header={({ peers, session, title, access, closedBy, currentDoc }) => (
        <>
          <MembersRefresh peers={peers} />
          <ListRefresh title={title} closedBy={closedBy} />
          <DocTitle docId={doc.id} title={title} owner={access === 'owner'} />
          {doc.report && <span className="collab-access is-report">{t('report.badge')}</span>}
          {closedBy !== 'removed' && <span className={`collab-access is-${access}`}>{t(`access.${access}`)}</span>}
          <PresenceAvatars peers={peers} session={session} />
          {closedBy === null && (
            <span className="collab-head-actions">
              <button type="button" className={`button button-secondary button-small${history ? ' active' : ''}`} aria-pressed={history} onClick={() => setHistory(!history)}>
                {history ? <PenLineIcon size={14} /> : <HistoryIcon size={14} />}
                {history ? t('history.close') : t('history.open')}
              </button>
              {doc.report && access === 'owner' && <SaveToReport sessionId={doc.report.session_id} currentDoc={currentDoc} />}
              <button type="button" className="button button-secondary button-small" onClick={() => setPeople(true)}>
                <UsersIcon size={14} />
                {t('people.open')}
              </button>
              {access === 'owner' && (
                <button type="button" className="button button-primary button-small" onClick={() => setInviting(true)}>
                  <UserPlusIcon size={14} />
                  {t('invite.open')}
                </button>
              )}
            </span>
          )}
          {inviting && <InviteDialog docId={doc.id} open onClose={() => setInviting(false)} />}
          {people && <MembersDialog docId={doc.id} access={access} open onClose={() => setPeople(false)} />}
        </>
      )}
    />
  );
}

function OpenDoc({ docId }: { docId: string }) {
  const { t } = useTranslation('collab');
  // Opened once per visit: the socket carries every change after the version it was opened at.
  const doc = useApiQuery({ queryKey: queryKeys.collab('doc', docId), queryFn: () => collabApi.get(docId), staleTime: Infinity, gcTime: 0 });
  if (doc.isPending) return <PageLoading />;
  // A document the reader is not a member of answers as one that does not exist; say what opens it.
  if (doc.error?.code === 'collab.not_found')
    return (
      <div className="collab-empty" role="status">
        <p>{t('notFound')}</p>
        <p className="muted">{t('notFoundHint')}</p>
      </div>
    );
  if (doc.error)
    return (
      <div className="collab-empty">
        <p>{t('loadFailed')}</p>
        <ErrorBanner error={doc.error} />
      </div>
    );
  return <DocView key={docId} doc={doc.data} />;
}

/** Opening an invitation link: join, then open the document. */
function JoinInvite({ token }: { token: string }) {
  const { t } = useTranslation('collab');
  const navigate = useNavigate();
  const queries = useQueryClient();
  const join = useApiMutation({
    mutationFn: (invite: string) => collabApi.accept(invite),
    onSuccess: (doc) => {
      void queries.invalidateQueries({ queryKey: queryKeys.collab('docs') });
      navigate(`/collaboration/${doc.id}`, { replace: true });
    },
  });
  const { mutate, isIdle } = join;
  // Opening the link is the user's answer: it joins once, as soon as the page shows.
  useEffect(() => {
    if (isIdle) mutate(token);
  }, [isIdle, mutate, token]);
  return (
    <div className="collab-empty" role="status">
      {join.error ? (
        <>
          <p>{t('joinFailed')}</p>
          <ErrorBanner error={join.error} />
        </>
      ) : (
        <p>{t('joining')}</p>
      )}
    </div>
  );
}

/** /collaboration/:docId?: my shared documents, one open in the live editor; `?invite=` joins one. */
export default function CollaborationPage() {
  const { t } = useTranslation('collab');
  const { docId } = useParams();
  const [search] = useSearchParams();
  const invite = search.get('invite');
  const docs = useApiQuery({ queryKey: queryKeys.collab('docs'), queryFn: () => collabApi.list(), refetchInterval: 10_000 }).data?.docs;
  return (
    <div className="list-detail-page">
      <header className="list-detail-title">
        <UsersIcon size={20} />
        <div>
          <h1>{t('title')}</h1>
          <p className="muted">{t('subtitle')}</p>
        </div>
      </header>
      {(docId || invite) && (
        <Link to="/collaboration" className="list-detail-back">
          <ArrowLeftIcon size={14} />
          {t('mine')}
        </Link>
      )}
      <div className={`list-detail-layout${docId || invite ? ' has-selection' : ''}`}>
        <DocList docs={docs} selected={docId} />
        <section className="collab-main">{invite ? <JoinInvite token={invite} /> : docId ? <OpenDoc key={docId} docId={docId} /> : <p className="collab-empty muted">{t('pick')}</p>}</section>
      </div>
    </div>
  );
}
