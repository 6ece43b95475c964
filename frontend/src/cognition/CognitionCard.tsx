import { createElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { CognitionSummary, SourceKind } from './api.ts';
import { initials } from '../app/shell/navigation.ts';
import { Markdown, preloadMarkdown } from '../components/Markdown.tsx';
import { cardText } from './cardText.ts';
import { useExactTime, useRelativeTime } from '../ui/useRelativeTime.ts';
import { EyeIcon, FileTextIcon, GlobeIcon, LightbulbIcon, LockIcon, SearchIcon, SparklesIcon, type IconComponent } from '../ui/icons.ts';
import './cognition.css';

void preloadMarkdown();

const TAGS_SHOWN = 3;

export const SOURCE_ICON: Record<SourceKind, IconComponent> = { notes: FileTextIcon, url: GlobeIcon, synthesis: SparklesIcon };

export const displayPath = (id: string) => `/cognition/display?id=${encodeURIComponent(id)}`;

export interface Selection {
  selected: boolean;
  /** False once five are chosen: the card can no longer be ticked. */
  enabled: boolean;
  onToggle: () => void;
}

/** One cognition in a grid: what it is, whose, how read, how recent. In synthesis mode it is ticked instead of opened. */
export function CognitionCard({ item, selection, actions }: { item: CognitionSummary; selection?: Selection | undefined; actions?: ReactNode }) {
  const { t } = useTranslation('cognition');
  const timeText = useRelativeTime();
  const exactTime = useExactTime();
  const extraTags = item.tags.length - TAGS_SHOWN;
  const selecting = selection !== undefined;
  const classes = ['cog-card', selecting && 'cog-card-selecting', selection?.selected && 'cog-card-selected', selecting && !selection.enabled && 'cog-card-disabled'].filter(Boolean).join(' ');

  return (
    <article
      className={classes}
      data-cognition-id={item.id}
      onClick={(event) => {
        if (!selection || !selection.enabled) return;
        // The checkbox handles its own click; everywhere else on the card ticks it too.
        if ((event.target as HTMLElement).closest('input, button, a')) return;
        selection.onToggle();
      }}
    >
      <div className="cog-card-top">
        <span className={`cog-kind cog-kind-${item.source_kind}`}>
          {createElement(SOURCE_ICON[item.source_kind], { size: 13 })}
          {t(`card.sourceKind.${item.source_kind}`)}
        </span>
        {item.mine && (
          <span className={`cog-visibility ${item.public ? 'is-public' : 'is-private'}`}>
            {item.public ? <GlobeIcon size={12} /> : <LockIcon size={12} />}
            {t(item.public ? 'card.public' : 'card.private')}
          </span>
        )}
        {selection && (
          <input
            type="checkbox"
            className="cog-check"
            checked={selection.selected}
            disabled={!selection.enabled}
            title={selection.enabled ? undefined : t('synthesis.full')}
            aria-label={t('card.select', { title: item.title })}
            onChange={selection.onToggle}
          />
        )}
      </div>
      <h3 className="cog-card-title">{selecting ? item.title : <Link to={displayPath(item.id)}>{item.title}</Link>}</h3>
      <p className={`cog-card-summary${item.summary ? '' : ' is-empty'}`}>{item.summary ? <Markdown inline text={cardText(item.summary)} /> : t('card.noSummary')}</p>
      {item.tags.length > 0 && (
        <ul className="cog-tags" aria-label={t('display.tags')}>
          {item.tags.slice(0, TAGS_SHOWN).map((tag) => (
            <li key={tag} className="cog-tag">
              {tag}
            </li>
          ))}
          {extraTags > 0 && <li className="cog-tag cog-tag-more">+{extraTags}</li>}
        </ul>
      )}
      <footer className="cog-card-foot">
        <span className="cog-owner">
          <span className="cog-avatar" aria-hidden="true">
            {initials(item.owner)}
          </span>
          <span className="cog-owner-name">{item.owner}</span>
        </span>
        <span className="cog-card-stats">
          <span className="cog-stat" title={t('card.views', { count: item.view_count })}>
            <EyeIcon size={14} />
            <span className="sr-only">{t('card.views', { count: item.view_count })}</span>
            <span aria-hidden="true">{item.view_count}</span>
          </span>
          <time className="cog-stat" dateTime={item.created_at} title={exactTime(item.created_at)}>
            {timeText(item.created_at)}
          </time>
        </span>
      </footer>
      {actions && <div className="cog-card-actions">{actions}</div>}
    </article>
  );
}

export function CardSkeletons({ count = 6 }: { count?: number }) {
  return (
    <div className="cog-grid" aria-hidden="true">
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="cog-card cog-card-skeleton">
          <span className="cog-skel cog-skel-chip" />
          <span className="cog-skel cog-skel-title" />
          <span className="cog-skel" />
          <span className="cog-skel cog-skel-short" />
          <span className="cog-skel cog-skel-foot" />
        </div>
      ))}
    </div>
  );
}

/** A list of cognitions with nothing in it: nothing matched the search, or there is none yet (the reader's own when `mine`, else anyone's public). */
export function NoCognitions({ searching, mine }: { searching: boolean; mine: boolean }) {
  const { t } = useTranslation('cognition');
  return (
    <div className="cog-empty">
      <span className="cog-empty-icon">{searching ? <SearchIcon size={28} /> : <LightbulbIcon size={28} />}</span>
      <h2>{searching ? t('platform.noResultsTitle') : mine ? t('platform.emptyMineTitle') : t('platform.emptyTitle')}</h2>
      <p>{searching ? t('platform.noResultsText') : mine ? t('platform.emptyMineText') : t('platform.emptyText')}</p>
      {!searching && (
        <Link to="/note" className="button button-primary">
          <FileTextIcon size={16} />
          {t('platform.goNotes')}
        </Link>
      )}
    </div>
  );
}
