import { useTranslation } from 'react-i18next';
import { downloadBlob } from '../api/research.ts';
import { Icon } from '../components/Icon.tsx';
import { Markdown } from '../components/Markdown.tsx';
import { researchStore, type OpenArtifact } from '../research/store.ts';

/** A generated file: HTML runs in a sandbox with no access to this page; markdown is rendered. */
export function ArtifactPanel({ artifact }: { artifact: OpenArtifact }) {
  const { t } = useTranslation();
  return (
    <div className="artifact-panel">
      <header className="panel-header">
        <Icon name="file" size={16} />
        <strong>{artifact.filename}</strong>
        <span className="toolbar-spacer" />
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => downloadBlob(new Blob([artifact.content], { type: artifact.filetype === 'html' ? 'text/html' : 'text/markdown' }), artifact.filename)}
        >
          <Icon name="download" size={14} />
          {t('canvas.download')}
        </button>
        <button type="button" className="icon-button" aria-label={t('user.close')} title={t('user.close')} onClick={() => researchStore.showArtifact(null)}>
          <Icon name="close" size={16} />
        </button>
      </header>
      {artifact.filetype === 'html' ? (
        <iframe className="artifact-frame" title={artifact.filename} sandbox="allow-scripts" srcDoc={artifact.content} />
      ) : (
        <div className="artifact-body">
          <Markdown text={artifact.content} />
        </div>
      )}
    </div>
  );
}
