import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { RUN_COMMAND_TOOL, type EngineerNode } from '@scriptorium/domain/protocol/engineer';
import { ChevronDownIcon, ChevronRightIcon } from '../ui/icons.ts';
import { refusalInReadersLanguage } from '../i18n/index.ts';
import { nodeSummary, proposalAnswers, visibleRows } from './tree.ts';
import { intlLocale } from '../i18n/language.ts';

const ROW_HEIGHT = 34;
/** The next page is asked for while this many rows are still below the view, so scrolling rarely meets the end. */
const PREFETCH_ROWS = 150;

interface History {
  more: boolean;
  loading: boolean;
  loadMore: () => void;
}

/**
 * The session's steps as a tree; only the rows in view are in the page, so a long session scrolls as
 * lightly as a short one, and the next page of nodes is read as the end of what is loaded comes near.
 */
export function NodeTree({ nodes, history, selected, onSelect }: { nodes: ReadonlyMap<string, EngineerNode>; history: History; selected: string | null; onSelect: (id: string) => void }) {
  const { t, i18n } = useTranslation('engineer');
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const rows = useMemo(() => visibleRows(nodes, collapsed), [nodes, collapsed]);
  const answers = useMemo(() => proposalAnswers(nodes), [nodes]);
  // A proposal's node stays pending unless its agent updates it; what it shows is how it was answered.
  const statusOf = (node: EngineerNode): { className: string; label: string } | null => {
    if (node.node_type === 'tool_call' && node.status === 'pending' && node.payload.name === RUN_COMMAND_TOOL) {
      const answer = answers.get(node.id);
      return answer === undefined ? { className: 'is-pending', label: t('proposal.waiting') } : { className: answer === 'approved' ? 'is-completed' : 'is-failed', label: t(`proposal.${answer}`) };
    }
    return node.status === 'completed' ? null : { className: `is-${node.status}`, label: t(`nodeStatus.${node.status}`) };
  };
  const scroller = useRef<HTMLDivElement>(null);
  // One row more while pages remain: it says so, and seeing it (or nearly) asks for the next page.
  const count = rows.length + (history.more ? 1 : 0);
  const virtual = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const lastShown = virtual.getVirtualItems().at(-1)?.index ?? -1;
  const { more, loading, loadMore } = history;
  useEffect(() => {
    if (more && !loading && lastShown >= rows.length - PREFETCH_ROWS) loadMore();
  }, [more, loading, lastShown, rows.length, loadMore]);
  const toggle = (id: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  // One tab stop: arrows move the selection (and scroll it into view), left and right fold and unfold.
  const current = rows.findIndex((row) => row.node.id === selected);
  function onKeyDown(event: KeyboardEvent) {
    const row = rows[current];
    const move = (index: number) => {
      const target = rows[Math.max(0, Math.min(rows.length - 1, index))]!;
      onSelect(target.node.id);
      virtual.scrollToIndex(rows.indexOf(target));
    };
    if (event.key === 'ArrowDown') move(current + 1);
    else if (event.key === 'ArrowUp') move(current < 0 ? 0 : current - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(rows.length - 1);
    else if (row && (event.key === 'ArrowRight' || event.key === 'ArrowLeft') && row.hasChildren && row.expanded === (event.key === 'ArrowLeft')) toggle(row.node.id);
    else return;
    event.preventDefault();
  }

  if (rows.length === 0) return <p className="engineer-empty muted">{t(history.more ? 'loadingNodes' : 'noNodes')}</p>;
  return (
    <div
      ref={scroller}
      className="engineer-tree"
      role="tree"
      tabIndex={0}
      aria-label={t('nodes_other', { count: rows.length })}
      aria-activedescendant={current >= 0 ? `engineer-node-${current}` : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row) {
            return (
              <div key="more" className="engineer-row engineer-more muted" aria-hidden="true" style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}>
                {t('loadingNodes')}
              </div>
            );
          }
          const { node } = row;
          const status = statusOf(node);
          return (
            <div
              key={node.id}
              id={`engineer-node-${item.index}`}
              role="treeitem"
              aria-level={row.depth + 1}
              aria-selected={selected === node.id}
              aria-expanded={row.hasChildren ? row.expanded : undefined}
              data-node-type={node.node_type}
              className={`engineer-row${selected === node.id ? ' is-selected' : ''}`}
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT, '--depth': row.depth } as CSSProperties}
              onClick={() => onSelect(node.id)}
            >
              {row.hasChildren ? (
                <button
                  type="button"
                  className="engineer-toggle"
                  aria-label={row.expanded ? t('toggle.collapse') : t('toggle.expand')}
                  onClick={(event) => {
                    event.stopPropagation();
                    toggle(node.id);
                  }}
                >
                  {row.expanded ? <ChevronDownIcon size={14} /> : <ChevronRightIcon size={14} />}
                </button>
              ) : (
                <span className="engineer-toggle" />
              )}
              <span className={`engineer-type engineer-type-${node.node_type}`}>{t(`nodeType.${node.node_type}`)}</span>
              <span className="engineer-summary">{nodeSummary(node, refusalInReadersLanguage) || <span className="muted">{t('detail.noOutput')}</span>}</span>
              {status && <span className={`engineer-node-status ${status.className}`}>{status.label}</span>}
              <time className="engineer-time muted">{new Date(node.timestamp).toLocaleTimeString(intlLocale(i18n.language))}</time>
            </div>
          );
        })}
      </div>
    </div>
  );
}
