import { useParams } from 'react-router-dom';
import { research } from '../api/research.ts';
import { queryKeys, useApiQuery } from '../api/query.ts';
import { PageLoading, ShareGone } from '../components/PageState.tsx';
import { ArtifactBody } from '../panels/ArtifactPanel.tsx';
import { FileIcon } from '../ui/icons.ts';
import '../panels/research.css';
import './share.css';

/** /share/artifact/:shareId: one generated file, full page; HTML runs sandboxed, Markdown is rendered. */
export default function ShareArtifactPage() {
  const { shareId = '' } = useParams();
  const query = useApiQuery({ queryKey: queryKeys.shared('artifact', shareId), queryFn: () => research.sharedArtifact(shareId), retry: false });


  if (query.isPending) return <PageLoading />;
  if (query.isError) return <ShareGone status={query.error.status} />;
  const shared = query.data;
  return (
    <div className="shared-artifact">
      <header className="panel-header">
        <FileIcon size={16} />
        <strong>{shared.filename}</strong>
      </header>
      <ArtifactBody artifact={shared} />
    </div>
  );
}
