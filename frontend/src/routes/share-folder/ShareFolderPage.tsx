import ShareNotePage from '../share-note/ShareNotePage.tsx';

/** /share/folder/:token: a shared note with the notes below it, the same page as /share/:token. */
export default ShareNotePage;
