import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { keepPreviousData } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import diff from 'fast-diff';
import { api, toApiError, type ApiError } from '../api/client.ts';
import { queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { downloadBlob } from '../api/research.ts';
import type { AuditEvent, AuditEvents, AuditEventsQuery, AuditSearch, AuditSearchQuery } from '@scriptorium/domain/protocol/http/audit';
import { currentPlan, Replay, viewMarkdown, type ReplayView } from './replay.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { Markdown, preloadMarkdown } from '../components/Markdown.tsx';
import { shownVersion } from '../machines/writing.ts';
import { ChatStream } from '../panels/ChatStream.tsx';
import { PlanCard } from '../panels/stream/items.tsx';
import { useDateFormat } from '../manage/shared.tsx';
import { DownloadIcon, PauseIcon, PlayIcon, SearchIcon, StepBackIcon, StepForwardIcon } from '../ui/icons.ts';
import { Select } from '../ui/Select.tsx';
import '../account/account.css';
import '../manage/manage.css';
import { useSessionLabel } from '../research/useSessionLabel.ts';
import { COMPACT_SCREEN, useMediaQuery } from '../ui/useMediaQuery.ts';
import './audit.css';
import '../panels/research.css';

void preloadMarkdown();

type Kind = NonNullable<AuditSearchQuery['kind']>;
/** Which kind of record a stream is, by the prefix every stream name starts with. */
const KIND_OF_STREAM: ReadonlyArray<[prefix: string, kind: Exclude<Kind, 'all'>]> = [
  ['conversation-', 'conversation'],
  ['engineer-', 'engineer'],
  ['trajectory-', 'trajectory'],
  ['user-', 'user'],
];
const PLAY_MS = 120;
const ROW_HEIGHT = 34;
/** On a phone a row is two lines (audit.css). */
const COMPACT_ROW_HEIGHT = 52;

/**
 * Loads a stream page by page into a replay, folding as it goes so a long session never blocks the page.
 * It stays outside the query cache on purpose: the pages are not a read model to cache but input to
 * one mutable `Replay` that the player shows while it grows, and a cached copy would only hold a
 * second full copy of the stream's events.
 */
function useStream(stream: string | null) {
  const [state, setState] = useState<{ replay: Replay; loaded: number; total: number; error: ApiError | null }>({ replay: new Replay(stream ?? ''), loaded: 0, total: 0, error: null });
  useEffect(() => {
    if (!stream) return;
    const replay = new Replay(stream);
    let current = true;
    setState({ replay, loaded: 0, total: 0, error: null });
    void (async () => {
      try {
        for (let from: number | null = 0; from !== null && current; ) {
          const page: AuditEvents = await api.get<AuditEvents, AuditEventsQuery>(`/audit/streams/${encodeURIComponent(stream)}/events`, { query: { from } });
          if (!current) return;
          replay.append(page.events);
          setState({ replay, loaded: replay.rows.length, total: page.total, error: null });
          from = page.next;
          // Let the page paint between pages.
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
      } catch (error) {
        if (current) setState((previous) => ({ ...previous, error: toApiError(error) }));
      }
    })();
    return () => {
      current = false;
    };
  }, [stream]);
  return state;
}

type SearchForm = { q: string; user: string; from: string; to: string; kind: Kind };

const searchStreams = (form: SearchForm) => api.get<AuditSearch, AuditSearchQuery>('/audit/search', { query: { q: form.q || undefined, user: form.user || undefined, from: form.from || undefined, to: form.to || undefined, kind: form.kind } });

function SearchPanel({ onOpen }: { onOpen: (stream: string) => void }) {
  const { t } = useTranslation('account');
  const sessionLabel = useSessionLabel();
  const [form, setForm] = useState<SearchForm>({ q: '', user: '', from: '', to: '', kind: 'all' });
  const [applied, setApplied] = useState<SearchForm | null>(null);
  // Every search is sent (the streams may have grown since; staleTime 0), and the last results stay in
  // sight while the next one runs.
  const search = useApiQuery({ queryKey: queryKeys.auditSearch(applied ?? {}), queryFn: () => searchStreams(applied ?? form), enabled: applied !== null, staleTime: 0, placeholderData: keepPreviousData });
  const result = search.data ?? null;
  const error = search.isFetching ? null : search.error;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (applied && JSON.stringify(applied) === JSON.stringify(form)) void search.refetch();
    else setApplied({ ...form });
  }
  const field = (name: 'q' | 'user' | 'from' | 'to', type = 'text') => (
    <label className="editor-field">
      <span>{t(`audit.search.${name}`)}</span>
      <input className="input" type={type} value={form[name]} onChange={(event) => setForm((current) => ({ ...current, [name]: event.target.value }))} />
    </label>
  );
  const date = useDateFormat();
  const found = result ? [...result.conversations, ...result.engineer_sessions, ...result.trajectories, ...result.users] : [];
  return (
    <section className="audit-search" aria-label={t('audit.search.label')}>
      <form className="audit-search-form" onSubmit={submit}>
        {field('q')}
        {field('user')}
        {field('from', 'date')}
        {field('to', 'date')}
        <label className="editor-field">
          <span>{t('audit.search.kind')}</span>
          <Select<Kind> value={form.kind} onChange={(kind) => setForm((current) => ({ ...current, kind }))} label={t('audit.search.kind')} options={(['all', 'conversation', 'engineer', 'trajectory', 'user'] as const).map((kind) => ({ value: kind, label: t(`audit.search.kinds.${kind}`) }))} />
        </label>
        <button className="button button-primary" type="submit">
          <SearchIcon size={15} />
          {t('audit.search.submit')}
        </button>
      </form>
      {error && <ErrorBanner error={error} />}
      {result && found.length === 0 && <p className="muted">{t('audit.search.empty')}</p>}
      <ul className="audit-found">
        {found.map((item) => {
          const kind = KIND_OF_STREAM.find(([prefix]) => item.stream.startsWith(prefix))?.[1];
          // A user is found as itself, with no owner and no title.
          const owner = 'user_id' in item ? (item.username ?? item.user_id.slice(0, 8)) : null;
          const title = ('title' in item ? (kind === 'conversation' ? sessionLabel({ title: item.title, name: '' }) : item.title) : null) ?? item.username ?? item.id;
          return (
            <li key={item.stream}>
              {kind && <span className="mini-badge mini-badge-primary">{t(`audit.search.kindOfOne.${kind}`)}</span>}
              <button type="button" className="button button-secondary button-small" onClick={() => onOpen(item.stream)} aria-label={t('audit.search.open', { title })}>
                {title}
              </button>
              <span className="muted">{[owner && t('audit.search.owner', { name: owner }), date(item.created_at)].filter(Boolean).join(' · ')}</span>
              <span className="mono muted">{item.stream}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** An event type may wrap between its words (UserMessage|Posted), never inside one. */
const breakable = (type: string) => type.split(/(?=[A-Z][a-z])/).flatMap((word, index) => (index === 0 ? [word] : [<wbr key={index} />, word]));

function Timeline({ rows, count, onJump }: { rows: AuditEvent[]; count: number; onJump: (count: number) => void }) {
  const { t } = useTranslation('account');
  const date = useDateFormat();
  const [type, setType] = useState('');
  const [text, setText] = useState('');
  const types = useMemo(() => [...new Set(rows.map((row) => row.type))].sort(), [rows.length]); // eslint-disable-line react-hooks/exhaustive-deps -- rows grows in place
  const shown = useMemo(() => {
    const needle = text.trim().toLowerCase();
    return rows.flatMap((row, index) => ((!type || row.type === type) && (!needle || [row.type, row.actor, row.actor_name, row.correlation_id, row.causation_id].some((value) => value?.toLowerCase().includes(needle))) ? [index] : []));
  }, [rows.length, type, text]); // eslint-disable-line react-hooks/exhaustive-deps -- rows grows in place
  const parent = useRef<HTMLDivElement>(null);
  const rowHeight = useMediaQuery(COMPACT_SCREEN) ? COMPACT_ROW_HEIGHT : ROW_HEIGHT;
  const virtualizer = useVirtualizer({ count: shown.length, getScrollElement: () => parent.current, estimateSize: () => rowHeight, overscan: 12 });
  // A rotated phone or a resized window changes the rows' height: the virtualizer measures again.
  useEffect(() => virtualizer.measure(), [rowHeight, virtualizer]);
  // Scrubbing or playing moves the timeline with it, so the current event is always in sight.
  useEffect(() => {
    if (count === 0) return;
    const at = shown.findIndex((index) => index >= count - 1);
    if (at !== -1) virtualizer.scrollToIndex(at, { align: 'auto' });
  }, [count, shown, virtualizer]);
  return (
    <section className="audit-timeline" aria-label={t('audit.timeline.title')}>
      <h2>{t('audit.timeline.title')}</h2>
      <div className="audit-filters">
        <Select value={type} onChange={setType} label={t('audit.timeline.filterType')} options={[{ value: '', label: t('audit.timeline.allTypes') }, ...types.map((value) => ({ value, label: value }))]} />
        <input className="input" value={text} onChange={(event) => setText(event.target.value)} placeholder={t('audit.timeline.filterText')} aria-label={t('audit.timeline.filterText')} />
      </div>
      <p className="muted">{t('audit.timeline.count', { shown: shown.length, total: rows.length })}</p>
      <div className="audit-timeline-table">
        <div className="audit-timeline-head" aria-hidden="true">
          {(['revision', 'type', 'at', 'actor', 'causation', 'size'] as const).map((column) => (
            <span key={column}>{t(`audit.timeline.columns.${column}`)}</span>
          ))}
        </div>
        <div ref={parent} className="audit-timeline-scroll">
          <ol style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const index = shown[item.index]!;
              const row = rows[index]!;
              return (
                <li key={row.id} style={{ transform: `translateY(${item.start}px)`, height: rowHeight }} className={index < count ? 'audit-row audit-row-done' : 'audit-row'}>
                  <button type="button" onClick={() => onJump(index + 1)} aria-current={index + 1 === count ? 'step' : undefined} aria-label={t('audit.timeline.jump', { revision: row.revision, type: row.type })}>
                    <span>{row.revision}</span>
                    <span className="strong">{breakable(row.type)}</span>
                    <span>{date(row.at)}</span>
                    <span className={row.actor_name ? undefined : 'mono'} title={row.actor ?? undefined}>
                      {row.actor_name ?? row.actor?.slice(0, 8) ?? ''}
                    </span>
                    <span className="mono">{[row.causation_id, row.correlation_id].filter(Boolean).map((id) => id!.slice(0, 8)).join(' / ')}</span>
                    <span>{t('audit.size', { size: row.size })}</span>
                  </button>
                </li>
              );
            })}
          </ol>
        </div>
      </div>
    </section>
  );
}

/** A stream the research view cannot show (an engineer session, a trajectory, a user): the event at the player's position, as recorded. */
function EventDetail({ row }: { row: AuditEvent | undefined }) {
  const { t } = useTranslation('account');
  const date = useDateFormat();
  return (
    <section className="audit-view audit-event" aria-label={t('audit.view.event')}>
      <p className="muted">{t('audit.view.notConversation')}</p>
      {row ? (
        <>
          <h2>
            {row.type} <span className="mini-badge">#{row.revision}</span>
          </h2>
          <p className="muted">{[date(row.at), row.actor_name ?? row.actor].filter(Boolean).join(' · ')}</p>
          <pre className="audit-event-data">{JSON.stringify(row.data, null, 2)}</pre>
        </>
      ) : (
        <p className="muted">{t('audit.view.pickEvent')}</p>
      )}
    </section>
  );
}

function ViewAt({ view }: { view: ReplayView }) {
  const { t } = useTranslation('account');
  const plan = currentPlan(view.conversation);
  const shown = shownVersion(view.writing.context);
  return (
    <div className="audit-view">
      <section aria-label={t('audit.view.chat')} className="audit-chat">
        <h2>{t('audit.view.chat')}</h2>
        <ChatStream conversation={view.conversation} readOnly />
      </section>
      <section aria-label={t('audit.view.canvas')} className="audit-canvas">
        {plan.length > 0 && (
          <>
            <h2>{t('audit.view.plan')}</h2>
            <PlanCard steps={plan} />
          </>
        )}
        <h2>
          {t('audit.view.canvas')} {shown && <span className="mini-badge">{shown.streaming ? t('audit.view.writing') : t('audit.view.version', { version: shown.version })}</span>}
        </h2>
        {shown ? <Markdown text={shown.content} /> : <p className="muted">{t('audit.view.noCanvas')}</p>}
      </section>
    </div>
  );
}

function VersionDiff({ view }: { view: ReplayView }) {
  const { t } = useTranslation('account');
  const versions = view.writing.context.versions;
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const older = versions.find((version) => String(version.version) === from) ?? versions.at(-2);
  const newer = versions.find((version) => String(version.version) === to) ?? versions.at(-1);
  const parts = useMemo(() => (older && newer ? diff(older.content, newer.content) : []), [older, newer]);
  if (versions.length < 2 || !older || !newer) return <p className="muted">{t('audit.diff.none')}</p>;
  const options = versions.map((version) => ({ value: String(version.version), label: t('audit.view.version', { version: version.version }) }));
  const count = (sign: number) => parts.reduce((total, [kind, text]) => total + (kind === sign ? text.length : 0), 0);
  return (
    <section className="audit-diff" aria-label={t('audit.diff.title')}>
      <h2>{t('audit.diff.title')}</h2>
      <div className="audit-filters">
        <Select value={String(older.version)} onChange={setFrom} label={t('audit.diff.from')} options={options} />
        <Select value={String(newer.version)} onChange={setTo} label={t('audit.diff.to')} options={options} />
        <span className="muted">{t('audit.diff.summary', { added: count(diff.INSERT), removed: count(diff.DELETE) })}</span>
      </div>
      <pre className="audit-diff-text">
        {parts.map(([kind, text], index) => (kind === diff.INSERT ? <ins key={index}>{text}</ins> : kind === diff.DELETE ? <del key={index}>{text}</del> : <span key={index}>{text}</span>))}
      </pre>
    </section>
  );
}

/** /audit: find a stream, walk its events, and see the research view as it was at any of them. */
export default function AuditPage() {
  const { t } = useTranslation('account');
  const date = useDateFormat();
  const [stream, setStream] = useState<string | null>(null);
  const { replay, loaded, total, error } = useStream(stream);
  const [count, setCount] = useState(0);
  const [playing, setPlaying] = useState(false);
  const exportJsonl = useApiMutation({
    mutationFn: (name: string) => api.get<string>(`/audit/streams/${encodeURIComponent(name)}/export.jsonl`),
    onSuccess: (text, name) => downloadBlob(new Blob([text], { type: 'application/x-ndjson' }), `${name}.jsonl`),
  });

  useEffect(() => setCount(0), [stream]);
  useEffect(() => {
    if (!playing) return;
    if (count >= loaded) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => setCount((value) => value + 1), PLAY_MS);
    return () => clearTimeout(timer);
  }, [playing, count, loaded]);

  const view = useMemo(() => replay.viewAt(count), [replay, count, loaded]); // eslint-disable-line react-hooks/exhaustive-deps -- rows grow in place
  const finalView = useMemo(() => replay.viewAt(loaded), [replay, loaded]);
  const row = count > 0 ? replay.rows[count - 1] : undefined;
  const conversation = stream?.startsWith('conversation-') ?? false;

  function exportMarkdown() {
    if (!stream) return;
    const labels = { ...t('audit.markdown', { returnObjects: true }), chat: t('audit.view.chat'), plan: t('audit.view.plan'), canvas: t('audit.view.canvas'), noCanvas: t('audit.view.noCanvas'), status: t('audit.status', { returnObjects: true }) };
    downloadBlob(new Blob([viewMarkdown(view, stream, row, labels)], { type: 'text/markdown' }), `${stream}-${row?.position ?? 0}.md`);
  }

  return (
    <div className="manage audit">
      <header className="manage-head">
        <div>
          <h1>{t('audit.title')}</h1>
          <p className="muted">{t('audit.subtitle')}</p>
        </div>
      </header>
      <SearchPanel onOpen={setStream} />
      {stream && (
        <>
          <div className="audit-bar">
            <h2 className="mono">{stream}</h2>
            <span className="muted" role="status">
              {t('audit.loading', { loaded, total })}
            </span>
            <button className="button button-secondary button-small" type="button" onClick={() => exportJsonl.mutate(stream)}>
              <DownloadIcon size={14} />
              {t('audit.export.jsonl')}
            </button>
            {conversation && (
              <button className="button button-secondary button-small" type="button" onClick={exportMarkdown}>
                <DownloadIcon size={14} />
                {t('audit.export.markdown')}
              </button>
            )}
          </div>
          {error && <ErrorBanner error={error} />}
          {exportJsonl.error && <ErrorBanner error={exportJsonl.error} />}
          <div className="audit-player">
            <button className="icon-button" type="button" onClick={() => setCount((value) => Math.max(0, value - 1))} disabled={count === 0} aria-label={t('audit.player.back')}>
              <StepBackIcon size={16} />
            </button>
            <button className="icon-button" type="button" onClick={() => setPlaying((value) => !value)} disabled={loaded === 0} aria-label={t(playing ? 'audit.player.pause' : 'audit.player.play')}>
              {playing ? <PauseIcon size={16} /> : <PlayIcon size={16} />}
            </button>
            <button className="icon-button" type="button" onClick={() => setCount((value) => Math.min(loaded, value + 1))} disabled={count >= loaded} aria-label={t('audit.player.forward')}>
              <StepForwardIcon size={16} />
            </button>
            <input type="range" min={0} max={loaded} value={count} onChange={(event) => setCount(Number(event.target.value))} aria-label={t('audit.player.scrub')} />
            <span className="muted">{row ? t('audit.player.at', { count, total: loaded, position: row.position, time: date(row.at) }) : t('audit.player.start')}</span>
          </div>
          <div className="audit-grid">
            <Timeline rows={replay.rows} count={count} onJump={setCount} />
            {conversation ? <ViewAt view={view} /> : <EventDetail row={row} />}
          </div>
          {conversation && <VersionDiff view={finalView} />}
        </>
      )}
    </div>
  );
}
