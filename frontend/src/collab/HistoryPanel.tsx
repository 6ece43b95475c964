import { keepPreviousData } from '@tanstack/react-query';
import { DOMSerializer, Node } from 'prosemirror-model';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { collabSchema } from '@scriptorium/domain/protocol/collabSchema';
import { collabApi } from './api.ts';
import { queryKeys, useApiQuery } from '../api/query.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { groupHistory } from './history.ts';
import { intlLocale } from '../i18n/language.ts';

const serializer = DOMSerializer.fromSchema(collabSchema);

/** A document as it was, drawn with the editor's own schema (so it looks as it did), not editable. */
function Rendered({ doc }: { doc: unknown }) {
  const target = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = Node.fromJSON(collabSchema, doc);
    target.current!.replaceChildren(serializer.serializeFragment(node.content));
  }, [doc]);
  return <div ref={target} className="collab-prose collab-history-doc" />;
}

/**
 * History replay: a slider over every version and the list of edits (a member's accepted batches
 * close together, with who, when and how many steps); the server rebuilds the document at the chosen version from the log (from the nearest
 * snapshot), so this shows exactly what the editors had then.
 */
export function HistoryPanel({ docId }: { docId: string }) {
  const { t, i18n } = useTranslation('collab');
  const history = useApiQuery({ queryKey: queryKeys.collab('history', docId), queryFn: () => collabApi.history(docId), staleTime: 0 });
  const latest = history.data?.version ?? 0;
  const [chosen, setChosen] = useState<number | null>(null);
  const version = chosen ?? latest;
  const rebuilt = useApiQuery({ queryKey: queryKeys.collab('version', docId, version), queryFn: () => collabApi.version(docId, version), enabled: history.isSuccess, placeholderData: keepPreviousData, staleTime: Infinity });
  const groups = useMemo(() => groupHistory(history.data?.entries ?? []), [history.data]);
  const time = new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'short', timeStyle: 'medium' });

  if (history.error) return <ErrorBanner error={history.error} />;
  return (
    <section className="collab-history" aria-label={t('history.title')}>
      <div className="collab-history-controls">
        <label className="collab-history-slider">
          <span>{t('history.at', { version, latest })}</span>
          <input type="range" min={0} max={latest} value={version} aria-label={t('history.slider')} onChange={(event) => setChosen(Number(event.target.value))} disabled={latest === 0} />
        </label>
        {history.data?.entries.length === 0 && <p className="muted">{t('history.empty')}</p>}
        <ol className="collab-history-list">
          {groups.map((group) => {
            const current = version > group.from && version <= group.to;
            return (
              <li key={group.from}>
                <button type="button" className={current ? 'is-current' : ''} aria-current={current ? 'step' : undefined} onClick={() => setChosen(group.to)}>
                  <span>{t('history.entry', { name: group.name, count: group.steps })}</span>
                  <span className="muted">
                    {t('version', { version: group.to })} · {time.format(new Date(group.at))}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
      </div>
      <div className="collab-history-view" aria-busy={rebuilt.isFetching}>
        {rebuilt.error && <ErrorBanner error={rebuilt.error} />}
        {rebuilt.data ? <Rendered doc={rebuilt.data.doc} /> : <p className="muted">{t('history.loading')}</p>}
      </div>
    </section>
  );
}
