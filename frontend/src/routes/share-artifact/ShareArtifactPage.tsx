import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { research } from '../../api/research.ts';
import { Icon } from '../../components/Icon.tsx';
import { useShared } from '../../components/useShared.ts';
import { PageLoading, ShareGone } from '../../components/PageState.tsx';
import { ArtifactBody } from '../../panels/ArtifactPanel.tsx';

/** /share/artifact/:shareId: one generated file, full page; HTML runs sandboxed, Markdown is rendered. */
export default function ShareArtifactPage() {
  const { t } = useTranslation();
  const { shareId = '' } = useParams();
  const shared = useShared(() => research.sharedArtifact(shareId), shareId);


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
