import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { Markdown, preloadMarkdown } from '../components/Markdown.tsx';
import { PageLoading, ShareGone } from '../components/PageState.tsx';
import { useSharedNote } from './queries.ts';
import { buildTree, type TreeNode } from './tree.ts';
import './notes.css';
import { FileTextIcon, FolderIcon } from '../ui/icons.ts';
import '../share/share.css';
import { intlLocale } from '../i18n/language.ts';

void preloadMarkdown();

/**
 * /share/:token (and /share/folder/:token): a shared note, read-only, for anyone with the link.
 * When notes sit below it the link is a folder: their tree beside the note being read.
 */
export default function SharedNotePage() {
  const { t, i18n } = useTranslation('notes');
  const { token = '' } = useParams();
  const query = useSharedNote(token);
  const [openId, setOpenId] = useState<string | null>(null);

  if (query.isPending) return <PageLoading />;
  if (query.isError) return <ShareGone status={query.error.status} />;
  const shared = query.data;

  const pages = [{ id: shared.id, name: shared.name, content: shared.content, updated_at: shared.updated_at, parent_id: null, order: 0 }, ...shared.children];
  const shown = pages.find((page) => page.id === openId) ?? pages[0]!;
  const time = new Intl.DateTimeFormat(intlLocale(i18n.language), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(shown.updated_at));
  const tree = buildTree(pages.map((page) => ({ id: page.id, name: page.name, parent_id: page.parent_id, order: page.order, created_at: page.updated_at, updated_at: page.updated_at, shared: true })));
  const article = (
    <article className="shared-note">
      <header>
        <span className="chip">
          {shared.children.length > 0 ? <FolderIcon size={12} /> : <FileTextIcon size={12} />}
          {t('shared.by', { owner: shared.owner })}
        </span>
        <h1>{shown.name}</h1>
        <p className="muted">{t('shared.updated', { time })}</p>
      </header>
      <Markdown text={shown.content} />
      <footer>
        <Link to="/">{t('shared.toApp')}</Link>
      </footer>
    </article>
  );
  if (shared.children.length === 0) return article;
  return (
    <div className="shared-folder">
      <nav className="shared-folder-tree" aria-label={shared.name}>
        <FolderTree nodes={tree} openId={shown.id} onOpen={setOpenId} />
      </nav>
      {article}
    </div>
  );
}

function FolderTree({ nodes, openId, onOpen }: { nodes: readonly TreeNode[]; openId: string; onOpen: (id: string) => void }) {
  return (
    <ul>
      {nodes.map((node) => (
        <li key={node.note.id}>
          <button type="button" className={node.note.id === openId ? 'active' : undefined} aria-current={node.note.id === openId} onClick={() => onOpen(node.note.id)}>
            {node.children.length > 0 ? <FolderIcon size={14} /> : <FileTextIcon size={14} />}
            <span>{node.note.name}</span>
          </button>
          {node.children.length > 0 && <FolderTree nodes={node.children} openId={openId} onOpen={onOpen} />}
        </li>
      ))}
    </ul>
  );
}
