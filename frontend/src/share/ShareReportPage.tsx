import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { downloadBlob, research, sharedCanvasPdf } from '../api/research.ts';
import { ErrorBanner } from '../components/ErrorBanner.tsx';
import { Markdown, preloadMarkdown } from '../components/Markdown.tsx';
import { queryKeys, useApiMutation, useApiQuery } from '../api/query.ts';
import { PageLoading, PageState, ShareGone } from '../components/PageState.tsx';
import { DownloadIcon, FileIcon } from '../ui/icons.ts';
import './share.css';
import { intlLocale } from '../i18n/language.ts';

void preloadMarkdown();

/**
 * /share/report/:shareId: only the report of a shared conversation (its canvas's latest version),
 * as a page to read and take away as a PDF; the same link id opens the whole conversation.
 */
export default function ShareReportPage() {
  const { t, i18n } = useTranslation();
  const { shareId = '' } = useParams();
  const query = useApiQuery({ queryKey: queryKeys.shared('report', shareId), queryFn: () => research.shared(shareId), retry: false });
  const pdf = useApiMutation({
    mutationFn: async ({ version, name }: { version: number; name: string }) => downloadBlob(await sharedCanvasPdf(shareId, version), name),
  });

  if (query.isPending) return <PageLoading />;
  if (query.isError) return <ShareGone status={query.error.status} />;
  const shared = query.data;
  const conversationLink = `/share/conversation/${encodeURIComponent(shareId)}`;
  const version = shared.canvas?.versions.find((candidate) => candidate.version === shared.canvas?.currentVersion) ?? shared.canvas?.versions.at(-1);
  if (!version) {
    return (
      <PageState
        icon={FileIcon}
        title={t('shared.noReport')}
        actions={
          <Link className="button button-primary" to={conversationLink}>
            {t('shared.toConversation')}
          </Link>
        }
      >
        <p>{t('shared.noReportText')}</p>
      </PageState>
    );
  }
  const date = new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(version.timestamp));
  return (
    <article className="shared-note shared-report">
      <header>
        <span className="chip">
          <FileIcon size={12} />
          {t('shared.reportBadge')}
        </span>
        <p className="muted">
          {t('shared.version', { version: version.version })} · {date}
        </p>
        <div className="shared-report-actions">
          <button type="button" className="button button-secondary button-small" onClick={() => pdf.mutate({ version: version.version, name: `${version.title || shared.title || 'report'}.pdf` })}>
            <DownloadIcon size={14} />
            {t('shared.pdf')}
          </button>
          <Link className="button button-secondary button-small" to={conversationLink}>
            {t('shared.toConversation')}
          </Link>
        </div>
      </header>
      {pdf.error && <ErrorBanner error={pdf.error} />}
      <Markdown text={version.content} />
    </article>
  );
}
