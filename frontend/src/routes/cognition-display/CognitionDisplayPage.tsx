import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { deleteCognition, getCognition, recordCognitionView, updateCognition, type Cognition } from '../../api/cognition.ts';
import { toApiError, type ApiError } from '../../api/client.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { PageLoading, PageState } from '../../components/PageState.tsx';
import { CognitionArticle } from '../../cognition/CognitionArticle.tsx';
import { CollectDialog } from '../../cognition/CollectDialog.tsx';
import { EditDialog } from '../../cognition/EditDialog.tsx';
import { errorMessage } from '../../cognition/errors.ts';
import { useExactTime, useSignInFirst, useTimeText } from '../../cognition/hooks.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { ShareCognitionDialog } from '../../cognition/ShareCognitionDialog.tsx';
import { ArrowLeftIcon, FolderPlusIcon, LightbulbIcon, RefreshCwIcon, Share2Icon, SquarePenIcon, Trash2Icon } from '../../ui/icons.ts';
import '../../cognition/cognition.css';

type Loaded = { status: 'loading' } | { status: 'ready'; cognition: Cognition } | { status: 'missing' } | { status: 'failed'; error: ApiError };

/** Cognition display (/cognition/display?id=…): public cognitions for anyone, private ones for their owner. */
export default function CognitionDisplayPage() {
  const { t } = useTranslation('cognition');
  const [params] = useSearchParams();
  const id = params.get('id');
  if (!id)
    return (
      <PageState
        icon={LightbulbIcon}
        title={t('display.missingId')}
        actions={
          <Link to="/cognition" className="button button-primary">
            {t('display.back')}
          </Link>
        }
      >
        <p>{t('display.missingIdText')}</p>
      </PageState>
    );
  return <CognitionDisplay key={id} id={id} />;
}

function CognitionDisplay({ id }: { id: string }) {
  const { t } = useTranslation('cognition');
  const { signedIn } = useSignInFirst();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const viewed = useRef<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getCognition(id, controller.signal).then(
      (cognition) => setLoaded({ status: 'ready', cognition }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const apiError = toApiError(error);
        setLoaded(apiError.status === 404 || apiError.status === 422 ? { status: 'missing' } : { status: 'failed', error: apiError });
      },
    );
    return () => controller.abort();
  }, [id, attempt]);

  const ready = loaded.status === 'ready';
  useEffect(() => {
    // One view per opening by a signed-in reader (it counts for the daily task 浏览认知); then the
    // count is read again, since only the server knows whether this reader had been counted before.
    if (!ready || !signedIn || viewed.current === id) return;
    viewed.current = id;
    recordCognitionView(id)
      .then(() => getCognition(id))
      .then(
        (cognition) => setLoaded((current) => (current.status === 'ready' ? { status: 'ready', cognition: { ...current.cognition, view_count: cognition.view_count } } : current)),
        () => undefined,
      );
  }, [ready, signedIn, id]);

  switch (loaded.status) {
    case 'loading':
      return <PageLoading />;
    case 'missing':
      return (
        <PageState
          icon={LightbulbIcon}
          tone="danger"
          title={t('display.notFound')}
          actions={
            <Link to="/cognition" className="button button-primary">
              {t('display.back')}
            </Link>
          }
        >
          <p>{t('display.notFoundText')}</p>
        </PageState>
      );
    case 'failed':
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
    case 'ready':
      return <Display cognition={loaded.cognition} onChange={(cognition) => setLoaded({ status: 'ready', cognition })} />;
  }
}

type Open = 'share' | 'edit' | 'delete' | 'collect' | null;

function Display({ cognition, onChange }: { cognition: Cognition; onChange: (cognition: Cognition) => void }) {
  const { t } = useTranslation('cognition');
  const navigate = useNavigate();
  const { signedIn, requireSignIn } = useSignInFirst();
  const timeText = useTimeText();
  const exactTime = useExactTime();
  const [open, setOpen] = useState<Open>(null);
  const [switching, setSwitching] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const setPublic = (value: boolean) => {
    setSwitching(true);
    setFailure(null);
    updateCognition(cognition.id, { public: value }).then(
      (updated) => {
        setSwitching(false);
        onChange(updated);
      },
      (error: unknown) => {
        setSwitching(false);
        setFailure(errorMessage(error));
      },
    );
  };

  return (
    <div className="cog-page cog-display">
      <nav className="cog-breadcrumb">
        <Link to="/cognition">
          <ArrowLeftIcon size={15} />
          {t('platform.title')}
        </Link>
      </nav>
      <div className="cog-display-grid">
        <CognitionArticle cognition={cognition} />
        <aside className="cog-aside" aria-label={t('display.actions')}>
          {cognition.mine && (
            <section className="cog-aside-card">
              <div className="cog-visibility-row">
                <div>
                  <h2>{t('display.visibility')}</h2>
                  <p>{t(cognition.public ? 'display.publicHint' : 'display.privateHint')}</p>
                </div>
                <button
                  type="button"
                  role="switch"
                  className={`cog-switch${cognition.public ? ' is-on' : ''}`}
                  aria-checked={cognition.public}
                  aria-label={t(cognition.public ? 'display.makePrivate' : 'display.makePublic')}
                  title={t(cognition.public ? 'display.makePrivate' : 'display.makePublic')}
                  disabled={switching}
                  onClick={() => setPublic(!cognition.public)}
                >
                  <span />
                </button>
              </div>
              {failure && (
                <p className="cog-form-error" role="alert">
                  {failure}
                </p>
              )}
              <div className="cog-aside-actions">
                <button type="button" className="button button-primary" onClick={() => setOpen('share')}>
                  <Share2Icon size={16} />
                  {t('display.share')}
                </button>
                <button type="button" className="button button-secondary" onClick={() => setOpen('collect')}>
                  <FolderPlusIcon size={16} />
                  {t('display.addToCollection')}
                </button>
                <button type="button" className="button button-secondary" onClick={() => setOpen('edit')}>
                  <SquarePenIcon size={16} />
                  {t('display.edit')}
                </button>
                <button type="button" className="button button-ghost-danger" onClick={() => setOpen('delete')}>
                  <Trash2Icon size={16} />
                  {t('display.delete')}
                </button>
              </div>
            </section>
          )}
          {!cognition.mine && (
            <section className="cog-aside-card">
              <button type="button" className="button button-primary button-block" onClick={() => requireSignIn(() => setOpen('collect'))}>
                <FolderPlusIcon size={16} />
                {t(signedIn ? 'display.addToCollection' : 'display.signInToCollect')}
              </button>
            </section>
          )}
          <section className="cog-aside-card">
            <h2>{t('display.details')}</h2>
            <dl className="cog-facts">
              <div>
                <dt>{t('display.owner')}</dt>
                <dd>{cognition.owner}</dd>
              </div>
              <div>
                <dt>{t('display.created')}</dt>
                <dd title={exactTime(cognition.created_at)}>{timeText(cognition.created_at)}</dd>
              </div>
              <div>
                <dt>{t('display.updated')}</dt>
                <dd title={exactTime(cognition.updated_at)}>{timeText(cognition.updated_at)}</dd>
              </div>
              <div>
                <dt>{t('display.views')}</dt>
                <dd>{cognition.view_count}</dd>
              </div>
              <div>
                <dt>{t('display.sources')}</dt>
                <dd>{cognition.sources.length}</dd>
              </div>
            </dl>
          </section>
        </aside>
      </div>
      {open === 'share' && <ShareCognitionDialog cognition={cognition} onChanged={onChange} onClose={() => setOpen(null)} />}
      {open === 'edit' && <EditDialog cognition={cognition} onSaved={onChange} onClose={() => setOpen(null)} />}
      {open === 'collect' && <CollectDialog cognition={cognition} onClose={() => setOpen(null)} />}
      {open === 'delete' && (
        <ConfirmDialog
          title={t('remove.title')}
          text={t('remove.text', { title: cognition.title })}
          confirmLabel={t('remove.confirm')}
          cancelLabel={t('remove.cancel')}
          onClose={() => setOpen(null)}
          onConfirm={() => deleteCognition(cognition.id).then(() => navigate('/cognition/library', { replace: true }))}
        />
      )}
    </div>
  );
}
