import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { Collection } from './api.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { CardSkeletons, CognitionCard, NoCognitions } from './CognitionCard.tsx';
import { CollectionDialog } from './CollectionDialog.tsx';
import { filterCollections } from './collections.ts';
import { LoadFailed } from './FormParts.tsx';
import { useCollections, useDeleteCollection } from './queries.ts';
import { useRelativeTime } from '../ui/useRelativeTime.ts';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { SearchField } from './SearchField.tsx';
import { useCognitionList } from './useCognitionList.ts';
import { ChevronDownIcon, FolderIcon, FolderPlusIcon, LightbulbIcon, SquarePenIcon, Trash2Icon } from '../ui/icons.ts';
import { Tabs } from '../ui/Tabs.tsx';
import './cognition.css';

type Tab = 'mine' | 'collections';

/** My cognition library (/cognition/library): my cognitions and my collections, each searchable. */
export default function CognitionLibraryPage() {
  const { t } = useTranslation('cognition');
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'collections' ? 'collections' : 'mine';
  const q = params.get('q') ?? '';

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };

  return (
    <div className="cog-page">
      <header className="cog-hero">
        <div className="cog-hero-text">
          <h1>{t('library.title')}</h1>
          <p>{t('library.subtitle')}</p>
        </div>
      </header>
      <Tabs
        value={tab}
        onChange={(value) => update({ tab: value === 'mine' ? null : value, q: null })}
        label={t('library.tabs')}
        className="cog-library-tabs"
        tabs={[
          { value: 'mine', label: t('library.tabMine'), icon: <LightbulbIcon size={16} /> },
          { value: 'collections', label: t('library.tabCollections'), icon: <FolderIcon size={16} /> },
        ]}
        toolbar={
          <SearchField
            key={tab}
            className="cog-search-inline"
            live
            applied={q}
            label={t(tab === 'mine' ? 'library.searchMine' : 'library.searchCollections')}
            placeholder={t(tab === 'mine' ? 'library.searchMine' : 'library.searchCollections')}
            onSearch={(query) => update({ q: query })}
          />
        }
      >
        {tab === 'mine' ? <MyCognitions q={q} /> : <MyCollections q={q} />}
      </Tabs>
    </div>
  );
}

function MyCognitions({ q }: { q: string }) {
  const { t } = useTranslation('cognition');
  const list = useCognitionList('mine', q);
  if (list.loading) return <CardSkeletons />;
  if (list.error && list.items.length === 0) return <LoadFailed error={list.error} onRetry={list.reload} />;
  if (list.items.length === 0) return <NoCognitions searching={q !== ''} mine />;
  return (
    <>
      <p className="cog-count cog-count-spaced">{t('platform.total', { count: list.total })}</p>
      <div className="cog-grid">
        {list.items.map((item) => (
          <CognitionCard key={item.id} item={item} />
        ))}
      </div>
      {list.error && <ErrorBanner error={list.error} />}
      {list.hasMore && (
        <div className="cog-more">
          <button type="button" className="button button-secondary" onClick={list.loadMore} disabled={list.loadingMore}>
            {list.loadingMore ? <span className="spinner spinner-small" /> : <ChevronDownIcon size={16} />}
            {t('platform.loadMore')}
          </button>
        </div>
      )}
    </>
  );
}

function MyCollections({ q }: { q: string }) {
  const { t } = useTranslation('cognition');
  const timeText = useRelativeTime();
  const list = useCollections();
  const [editing, setEditing] = useState<Collection | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Collection | null>(null);
  const remove = useDeleteCollection();

  if (list.isPending) return <CardSkeletons count={3} />;
  if (list.isError) return <LoadFailed error={list.error} onRetry={() => void list.refetch()} />;

  const collections = list.data;
  const shown = filterCollections(collections, q);
  return (
    <>
      {collections.length === 0 ? (
        <div className="cog-empty">
          <span className="cog-empty-icon">
            <FolderIcon size={28} />
          </span>
          <h2>{t('library.emptyCollections')}</h2>
          <p>{t('library.emptyCollectionsText')}</p>
          <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
            <FolderPlusIcon size={16} />
            {t('library.newCollection')}
          </button>
        </div>
      ) : (
        <div className="cog-collection-grid">
          <button type="button" className="cog-collection-new" onClick={() => setEditing('new')}>
            <FolderPlusIcon size={22} />
            <span>{t('library.newCollection')}</span>
          </button>
          {shown.map((collection) => (
            <article key={collection.id} className="cog-collection-card">
              <Link to={`/cognition/library/${encodeURIComponent(collection.id)}`} className="cog-collection-main" aria-label={t('library.open', { name: collection.name })}>
                <span className="cog-collection-icon">
                  <FolderIcon size={20} />
                </span>
                <strong className="cog-collection-name">{collection.name}</strong>
                <span className={`cog-collection-description${collection.description ? '' : ' is-empty'}`}>{collection.description || t('collection.noDescription')}</span>
                <span className="cog-collection-meta">
                  <span>{t('library.count', { count: collection.count })}</span>
                  <span>{t('library.updated', { time: timeText(collection.updated_at) })}</span>
                </span>
              </Link>
              <div className="cog-collection-tools">
                <button type="button" className="icon-button" title={t('library.rename')} aria-label={`${t('library.rename')} ${collection.name}`} onClick={() => setEditing(collection)}>
                  <SquarePenIcon size={16} />
                </button>
                <button type="button" className="icon-button icon-button-danger" title={t('library.delete')} aria-label={`${t('library.delete')} ${collection.name}`} onClick={() => setDeleting(collection)}>
                  <Trash2Icon size={16} />
                </button>
              </div>
            </article>
          ))}
        </div>
      )}
      {collections.length > 0 && shown.length === 0 && <p className="cog-count cog-count-spaced">{t('library.noCollectionMatch')}</p>}
      {editing && <CollectionDialog {...(editing !== 'new' && { collection: editing })} onClose={() => setEditing(null)} />}
      {deleting && (
        <ConfirmDialog
          title={t('deleteCollection.title')}
          text={t('deleteCollection.text', { name: deleting.name })}
          confirmLabel={t('deleteCollection.confirm')}
          cancelLabel={t('deleteCollection.cancel')}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove.mutateAsync(deleting.id)}
        />
      )}
    </>
  );
}
