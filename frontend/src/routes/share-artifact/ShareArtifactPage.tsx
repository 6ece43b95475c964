import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { research } from '../../api/research.ts';
import { Icon } from '../../components/Icon.tsx';
import { PageLoading, ShareGone } from '../../components/PageState.tsx';
import { ArtifactBody } from '../../panels/ArtifactPanel.tsx';

type Shared = Awaited<ReturnType<typeof research.sharedArtifact>>;

/** /share/artifact/:shareId: one generated file, full page; HTML runs sandboxed, Markdown is rendered. */
export default function ShareArtifactPage() {
  const { t } = useTranslation();
  const { shareId = '' } = useParams();
  const [shared, setShared] = useState<Shared | null | 'missing'>(null);

  useEffect(() => {
    let live = true;
    research.sharedArtifact(shareId).then(
      (loaded) => live && setShared(loaded),
      () => live && setShared('missing'),
    );
    return () => {
      live = false;
    };
  }, [shareId]);

  if (shared === null) return <PageLoading />;
  if (shared === 'missing') return <ShareGone title={t('shared.missingTitle')} text={t('shared.missingText')} action={t('shared.toResearch')} />;
  return (
    <div className="shared-artifact">
      <header className="panel-header">
        <Icon name="file" size={16} />
        <strong>{shared.filename}</strong>
      </header>
      <ArtifactBody artifact={shared} />
    </div>
  );
}
