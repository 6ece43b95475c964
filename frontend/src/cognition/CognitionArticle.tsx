import type { MouseEvent } from 'react';
import { createElement, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Cognition } from './api.ts';
import { initials } from '../app/shell/navigation.ts';
import { Markdown, preloadMarkdown } from '../components/Markdown.tsx';
import { cardText } from './cardText.ts';
import { anchorCitations, sourceAnchor, sourceHref, type CitedSource } from './citations.ts';
import { SOURCE_ICON } from './CognitionCard.tsx';
import { useExactTime, useRelativeTime } from '../ui/useRelativeTime.ts';
import { ExternalLinkIcon, EyeIcon, FileIcon, FileTextIcon, GlobeIcon, LightbulbIcon, LockIcon, QuoteIcon, SparklesIcon, TagIcon, type IconComponent } from '../ui/icons.ts';
import './cognition.css';

void preloadMarkdown();

const SOURCE_KIND_ICON: Record<CitedSource['kind'], IconComponent> = { note: FileTextIcon, url: GlobeIcon, cognition: LightbulbIcon };

/**
 * Citations point into the sources list on this page. Markdown opens every link in a new tab, so
 * in-page ones are caught first (capture phase) and scrolled to instead.
 */
function jumpToSource(event: MouseEvent<HTMLElement>) {
  const anchor = (event.target as HTMLElement).closest('a');
  const hash = anchor?.getAttribute('href');
  if (!hash?.startsWith('#')) return;
  event.preventDefault();
  event.stopPropagation();
  const target = document.getElementById(hash.slice(1));
  if (!target) return;
  target.scrollIntoView({ behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth', block: 'center' });
  target.classList.remove('is-flashing');
  // Restart the highlight even when the same citation is clicked twice.
  void target.offsetWidth;
  target.classList.add('is-flashing');
}

/** A cognition read top to bottom: heading, key insights, the cited body and its sources. Used by display and share. */
export function CognitionArticle({ cognition }: { cognition: Cognition }) {
  const { t } = useTranslation('cognition');
  const timeText = useRelativeTime();
  const exactTime = useExactTime();
  const content = useMemo(() => anchorCitations(cognition.content, cognition.sources), [cognition.content, cognition.sources]);

  return (
    <article className="cog-article">
      <header className="cog-article-head">
        <div className="cog-article-badges">
          <span className={`cog-kind cog-kind-${cognition.source_kind}`}>
            {createElement(SOURCE_ICON[cognition.source_kind], { size: 13 })}
            {t(`display.origin.${cognition.source_kind}`)}
          </span>
          {cognition.mine && (
            <span className={`cog-visibility ${cognition.public ? 'is-public' : 'is-private'}`}>
              {cognition.public ? <GlobeIcon size={12} /> : <LockIcon size={12} />}
              {t(cognition.public ? 'display.public' : 'display.private')}
            </span>
          )}
        </div>
        <h1>{cognition.title}</h1>
        {cognition.summary && (
          <p className="cog-article-summary">
            <Markdown inline text={cardText(cognition.summary)} />
          </p>
        )}
        <div className="cog-article-meta">
          <span className="cog-owner">
            <span className="cog-avatar" aria-hidden="true">
              {initials(cognition.owner)}
            </span>
            <span className="cog-owner-name">{cognition.owner}</span>
          </span>
          <span className="cog-meta-dot" aria-hidden="true" />
          <time dateTime={cognition.created_at} title={exactTime(cognition.created_at)}>
            {timeText(cognition.created_at)}
          </time>
          <span className="cog-meta-dot" aria-hidden="true" />
          <span className="cog-stat">
            <EyeIcon size={14} />
            {t('card.views', { count: cognition.view_count })}
          </span>
        </div>
        {cognition.tags.length > 0 && (
          <ul className="cog-tags" aria-label={t('display.tags')}>
            {cognition.tags.map((tag) => (
              <li key={tag} className="cog-tag">
                <TagIcon size={11} />
                {tag}
              </li>
            ))}
          </ul>
        )}
      </header>

      {cognition.insights.length > 0 && (
        <section className="cog-section" aria-labelledby="cog-insights">
          <h2 id="cog-insights">
            <SparklesIcon size={17} />
            {t('display.insights')}
          </h2>
          <ol className="cog-insights">
            {cognition.insights.map((insight, index) => (
              <li key={index}>
                <span className="cog-insight-n">{index + 1}</span>
                <p>
                  <Markdown inline text={cardText(insight)} />
                </p>
              </li>
            ))}
          </ol>
        </section>
      )}

      {cognition.content.trim() !== '' && (
        <section className="cog-section" aria-labelledby="cog-content">
          <h2 id="cog-content">
            <FileIcon size={17} />
            {t('display.content')}
          </h2>
          <div className="cog-content" onClickCapture={jumpToSource}>
            <Markdown text={content} />
          </div>
        </section>
      )}

      <section className="cog-section" aria-labelledby="cog-sources">
        <h2 id="cog-sources">
          <QuoteIcon size={16} />
          {t('display.sources')}
        </h2>
        {cognition.sources.length === 0 ? (
          <p className="muted">{t('display.noSources')}</p>
        ) : (
          <ol className="cog-sources">
            {cognition.sources.map((source) => (
              <SourceItem key={source.n} source={source} />
            ))}
          </ol>
        )}
      </section>
    </article>
  );
}

function SourceItem({ source }: { source: CitedSource }) {
  const { t } = useTranslation('cognition');
  const link = sourceHref(source);
  const title = source.title || source.url || t(`display.sourceKind.${source.kind}`);
  return (
    <li id={sourceAnchor(source.n)} className="cog-source">
      <span className="cog-source-n">{source.n}</span>
      <span className="cog-source-icon">
        {createElement(SOURCE_KIND_ICON[source.kind], { size: 15 })}
      </span>
      <span className="cog-source-body">
        {link?.kind === 'external' ? (
          <a href={link.href} target="_blank" rel="noopener noreferrer">
            {title}
            <ExternalLinkIcon size={12} />
          </a>
        ) : link?.kind === 'internal' ? (
          <Link to={link.href}>{title}</Link>
        ) : (
          <span>{title}</span>
        )}
        <small>
          {t(`display.sourceKind.${source.kind}`)}
          {source.kind === 'url' && source.url && <span className="cog-source-url"> · {source.url}</span>}
        </small>
      </span>
    </li>
  );
}
