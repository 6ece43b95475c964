import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { Cognition } from './api.ts';
import { PageLoading, PageState } from '../components/PageState.tsx';
import { CognitionArticle } from './CognitionArticle.tsx';
import { CollectDialog } from './CollectDialog.tsx';
import { EditDialog } from './EditDialog.tsx';
import { FormError, LoadFailed } from './FormParts.tsx';
import { isMissing, useCognition, useDeleteCognition, useRecordCognitionView, useUpdateCognition } from './queries.ts';
import { useSignInFirst } from './useSignInFirst.ts';
import { useExactTime, useRelativeTime } from '../ui/useRelativeTime.ts';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { ShareCognitionDialog } from './ShareCognitionDialog.tsx';
import { ArrowLeftIcon, FolderPlusIcon, LightbulbIcon, Share2Icon, SquarePenIcon, Trash2Icon } from '../ui/icons.ts';
import './cognition.css';

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
  const loaded = useCognition(id);
  const view = useRecordCognitionView(id);

  const ready = loaded.isSuccess;
  const { mutate: recordView, isIdle: notViewed } = view;
  useEffect(() => {
    // One view per opening by a signed-in reader (it counts for the daily task 浏览认知).
    if (ready && signedIn && notViewed) recordView();
  }, [ready, signedIn, notViewed, recordView]);

  if (loaded.isPending) return <PageLoading />;
  if (isMissing(loaded.error))
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
  if (loaded.isError)
    return (
      <div className="cog-page">
        <LoadFailed error={loaded.error} onRetry={() => void loaded.refetch()} />
      </div>
    );
  return <Display cognition={loaded.data} />;
}

type Open = 'share' | 'edit' | 'delete' | 'collect' | null;

function Display({ cognition }: { cognition: Cognition }) {
  const { t } = useTranslation('cognition');
  const navigate = useNavigate();
  const { signedIn, requireSignIn } = useSignInFirst();
  const timeText = useRelativeTime();
  const exactTime = useExactTime();
  const [open, setOpen] = useState<Open>(null);
  const visibility = useUpdateCognition(cognition.id);
  const remove = useDeleteCognition(cognition.id, () => navigate('/cognition/library', { replace: true }));

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
                  aria-label={t('display.makePublic')}
                  title={t(cognition.public ? 'display.makePrivate' : 'display.makePublic')}
                  // Not \`disabled\`: a disabled button drops the keyboard focus that just pressed it.
                  aria-disabled={visibility.isPending}
                  onClick={() => visibility.isPending || visibility.mutate({ public: !cognition.public })}
                >
                  <span />
                </button>
              </div>
              <FormError error={visibility.error} />
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
      {open === 'share' && <ShareCognitionDialog cognition={cognition} onClose={() => setOpen(null)} />}
      {open === 'edit' && <EditDialog cognition={cognition} onClose={() => setOpen(null)} />}
      {open === 'collect' && <CollectDialog cognition={cognition} onClose={() => setOpen(null)} />}
      {open === 'delete' && (
        <ConfirmDialog
          title={t('remove.title')}
          text={t('remove.text', { title: cognition.title })}
          confirmLabel={t('remove.confirm')}
          cancelLabel={t('remove.cancel')}
          onClose={() => setOpen(null)}
          onConfirm={() => remove.mutateAsync()}
        />
      )}
    </div>
  );
}
