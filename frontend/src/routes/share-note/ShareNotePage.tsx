import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { notesApi, type SharedNote } from '../../api/notes.ts';
import { Icon } from '../../components/Icon.tsx';
import { Markdown } from '../../components/Markdown.tsx';
import { PageLoading, ShareGone } from '../../components/PageState.tsx';
import '../../styles/notes.css';

/** /share/:token: a shared note, read-only, for anyone with the link. */
export default function ShareNotePage() {
  const { t, i18n } = useTranslation('notes');
  const { token = '' } = useParams();
  const [note, setNote] = useState<SharedNote | null | 'missing'>(null);

  useEffect(() => {
    let live = true;
    notesApi.shared(token).then(
      (shared) => live && setNote(shared),
      () => live && setNote('missing'),
    );
    return () => {
      live = false;
    };
  }, [token]);

  if (note === null) return <PageLoading />;
  if (note === 'missing') {
    return <ShareGone title={t('shared.missingTitle')} text={t('shared.missingText')} action={t('shared.toApp')} />;
  }
  const time = new Intl.DateTimeFormat(i18n.language === 'en' ? 'en' : 'zh-CN', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(note.updated_at));
  return (
    <article className="shared-note">
      <header>
        <span className="chip">
          <Icon name="note" size={12} />
          {t('shared.by', { owner: note.owner })}
        </span>
        <h1>{note.name}</h1>
        <p className="muted">{t('shared.updated', { time })}</p>
      </header>
      <Markdown text={note.content} />
      <footer>
        <Link to="/">{t('shared.toApp')}</Link>
      </footer>
    </article>
  );
}
