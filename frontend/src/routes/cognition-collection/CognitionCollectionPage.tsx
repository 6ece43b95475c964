import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { deleteCollection, getCollection, removeFromCollection, type CollectionDetail } from '../../api/cognition.ts';
import { toApiError, type ApiError } from '../../api/client.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { PageLoading, PageState } from '../../components/PageState.tsx';
import { CognitionCard } from '../../cognition/CognitionCard.tsx';
import { CollectionDialog } from '../../cognition/CollectionDialog.tsx';
import { errorMessage } from '../../cognition/errors.ts';
import { useTimeText } from '../../cognition/hooks.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { ArrowLeftIcon, BookmarkIcon, FolderIcon, FolderMinusIcon, LightbulbIcon, RefreshCwIcon, SquarePenIcon, Trash2Icon } from '../../ui/icons.ts';
import '../../cognition/cognition.css';

/** The route reads the id from the path and hands it down as a prop, as the spec describes. */
export default function CognitionCollectionPage() {
  const { id = '' } = useParams();
  return <CollectionDetailView key={id} id={id} />;
}

type Loaded = { status: 'loading' } | { status: 'ready'; collection: CollectionDetail } | { status: 'missing' } | { status: 'failed'; error: ApiError };

function CollectionDetailView({ id }: { id: string }) {
  const { t } = useTranslation('cognition');
  const navigate = useNavigate();
  const timeText = useTimeText();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getCollection(id, controller.signal).then(
      (collection) => setLoaded({ status: 'ready', collection }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const apiError = toApiError(error);
        setLoaded(apiError.status === 404 || apiError.status === 422 ? { status: 'missing' } : { status: 'failed', error: apiError });
      },
    );
    return () => controller.abort();
  }, [id, attempt]);

  const back = (
    <Link to="/cognition/library?tab=collections" className="button button-primary">
      {t('collection.back')}
    </Link>
  );

  if (loaded.status === 'loading') return <PageLoading />;
  if (loaded.status === 'missing')
    return (
      <PageState icon={FolderIcon} tone="danger" title={t('collection.notFound')} actions={back}>
        <p>{t('collection.notFoundText')}</p>
      </PageState>
    );
  if (loaded.status === 'failed')
    return (
      <div className="cog-page">
        <div className="cog-empty">
          <ErrorBanner error={loaded.error} />
          <button type="button" className="button button-secondary" onClick={() => setAttempt((value) => value + 1)}>
            <RefreshCwIcon size={16} />
            {t('platform.retry')}
          </button>
        </div>
      </div>
    );

  const { collection } = loaded;
  const remove = (cognitionId: string) => {
    setRemoving(cognitionId);
    setFailure(null);
    removeFromCollection(collection.id, cognitionId).then(
      (updated) => {
        setRemoving(null);
        setLoaded({ status: 'ready', collection: { ...collection, ...updated, items: collection.items.filter((item) => item.id !== cognitionId) } });
      },
      (error: unknown) => {
        setRemoving(null);
        setFailure(errorMessage(error));
      },
    );
  };

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
      {failure && (
        <p className="cog-form-error" role="alert">
          {failure}
        </p>
      )}
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
                <button type="button" className="button button-secondary button-small" disabled={removing !== null} onClick={() => remove(item.id)}>
                  {removing === item.id ? <span className="spinner spinner-small" /> : <FolderMinusIcon size={14} />}
                  {t('collection.remove')}
                </button>
              }
            />
          ))}
        </div>
      )}
      {dialog === 'edit' && <CollectionDialog collection={collection} onSaved={(saved) => setLoaded({ status: 'ready', collection: { ...collection, ...saved } })} onClose={() => setDialog(null)} />}
      {dialog === 'delete' && (
        <ConfirmDialog
          title={t('deleteCollection.title')}
          text={t('deleteCollection.text', { name: collection.name })}
          confirmLabel={t('deleteCollection.confirm')}
          cancelLabel={t('deleteCollection.cancel')}
          onClose={() => setDialog(null)}
          onConfirm={() => deleteCollection(collection.id).then(() => navigate('/cognition/library?tab=collections', { replace: true }))}
        />
      )}
    </div>
  );
}
