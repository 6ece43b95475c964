import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { PageLoading, PageState } from '../components/PageState.tsx';
import { CognitionCard } from './CognitionCard.tsx';
import { CollectionDialog } from './CollectionDialog.tsx';
import { FormError, LoadFailed } from './FormParts.tsx';
import { isMissing, useCollection, useDeleteCollection, useRemoveFromCollection } from './queries.ts';
import { useRelativeTime } from '../ui/useRelativeTime.ts';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { ArrowLeftIcon, BookmarkIcon, FolderIcon, FolderMinusIcon, LightbulbIcon, SquarePenIcon, Trash2Icon } from '../ui/icons.ts';
import './cognition.css';

/** The route reads the id from the path and hands it down as a prop, as the spec describes. */
export default function CognitionCollectionPage() {
  const { id = '' } = useParams();
  return <CollectionDetailView key={id} id={id} />;
}

function CollectionDetailView({ id }: { id: string }) {
  const { t } = useTranslation('cognition');
  const navigate = useNavigate();
  const timeText = useRelativeTime();
  const loaded = useCollection(id);
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const remove = useRemoveFromCollection(id);
  const deleteIt = useDeleteCollection(() => navigate('/cognition/library?tab=collections', { replace: true }));
  const removing = remove.isPending ? remove.variables : null;

  const back = (
    <Link to="/cognition/library?tab=collections" className="button button-primary">
      {t('collection.back')}
    </Link>
  );

  if (loaded.isPending) return <PageLoading />;
  if (isMissing(loaded.error))
    return (
      <PageState icon={FolderIcon} tone="danger" title={t('collection.notFound')} actions={back}>
        <p>{t('collection.notFoundText')}</p>
      </PageState>
    );
  if (loaded.isError)
    return (
      <div className="cog-page">
        <LoadFailed error={loaded.error} onRetry={() => void loaded.refetch()} />
      </div>
    );

  const collection = loaded.data;
  return (
    <div className="cog-page">
      <nav className="cog-breadcrumb">
        <Link to="/cognition/library?tab=collections">
          <ArrowLeftIcon size={15} />
          {t('collection.back')}
        </Link>
      </nav>
      <header className="cog-collection-head">
        <span className="cog-collection-icon cog-collection-icon-large">
          <FolderIcon size={26} />
        </span>
        <div className="cog-collection-head-text">
          <h1>{collection.name}</h1>
          <p className={collection.description ? '' : 'muted'}>{collection.description || t('collection.noDescription')}</p>
          <span className="cog-collection-meta">
            <span>{t('collection.count', { count: collection.count })}</span>
            <span>{t('library.updated', { time: timeText(collection.updated_at) })}</span>
          </span>
        </div>
        <div className="cog-collection-head-actions">
          <button type="button" className="button button-secondary" onClick={() => setDialog('edit')}>
            <SquarePenIcon size={16} />
            {t('collection.edit')}
          </button>
          <button type="button" className="button button-ghost-danger" onClick={() => setDialog('delete')}>
            <Trash2Icon size={16} />
            {t('collection.delete')}
          </button>
        </div>
      </header>
      <FormError error={remove.error} />
      {collection.items.length === 0 ? (
        <div className="cog-empty">
          <span className="cog-empty-icon">
            <BookmarkIcon size={28} />
          </span>
          <h2>{t('collection.empty')}</h2>
          <p>{t('collection.emptyText')}</p>
          <Link to="/cognition" className="button button-primary">
            <LightbulbIcon size={16} />
            {t('collection.browse')}
          </Link>
        </div>
      ) : (
        <div className="cog-grid">
          {collection.items.map((item) => (
            <CognitionCard
              key={item.id}
              item={item}
              actions={
                <button type="button" className="button button-secondary button-small" disabled={removing !== null} onClick={() => remove.mutate(item.id)}>
                  {removing === item.id ? <span className="spinner spinner-small" /> : <FolderMinusIcon size={14} />}
                  {t('collection.remove')}
                </button>
              }
            />
          ))}
        </div>
      )}
      {dialog === 'edit' && <CollectionDialog collection={collection} onClose={() => setDialog(null)} />}
      {dialog === 'delete' && (
        <ConfirmDialog
          title={t('deleteCollection.title')}
          text={t('deleteCollection.text', { name: collection.name })}
          confirmLabel={t('deleteCollection.confirm')}
          cancelLabel={t('deleteCollection.cancel')}
          onClose={() => setDialog(null)}
          onConfirm={() => deleteIt.mutateAsync(id)}
        />
      )}
    </div>
  );
}
