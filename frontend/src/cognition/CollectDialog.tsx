import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addToCollection, createCollection, listCollections, type Collection } from '../api/cognition.ts';
import { checkCollectionName } from './edit.ts';
import { errorMessage } from './errors.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { CheckIcon, FolderIcon, PlusIcon } from '../ui/icons.ts';
import './cognition.css';

/** Puts one cognition into any of the reader's collections, or into a new one made on the spot. */
export function CollectDialog({ cognition, onClose }: { cognition: { id: string; title: string }; onClose: () => void }) {
  const { t } = useTranslation('cognition');
  const [collections, setCollections] = useState<Collection[] | null>(null);
  const [added, setAdded] = useState<ReadonlySet<string>>(new Set());
  const [pending, setPending] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    listCollections().then(
      (answer) => current && setCollections(answer.collections),
      (error: unknown) => {
        if (!current) return;
        setCollections([]);
        setFailure(errorMessage(error));
      },
    );
    return () => {
      current = false;
    };
  }, []);

  const add = (collection: Collection) => {
    setPending(collection.id);
    setFailure(null);
    return addToCollection(collection.id, cognition.id).then(
      (updated) => {
        setPending(null);
        setAdded((previous) => new Set(previous).add(collection.id));
        setCollections((previous) => [updated, ...(previous ?? []).filter((entry) => entry.id !== updated.id)]);
      },
      (error: unknown) => {
        setPending(null);
        setFailure(errorMessage(error));
      },
    );
  };

  const createAndAdd = () => {
    const checked = checkCollectionName(name);
    if (!checked.ok) return setFailure(t(`collectionDialog.errors.${checked.error}`));
    setPending('new');
    setFailure(null);
    createCollection(checked.name).then(
      (created) => {
        setName('');
        return add(created);
      },
      (error: unknown) => {
        setPending(null);
        setFailure(errorMessage(error));
      },
    );
  };

  return (
    <Dialog title={t('collect.title')} onClose={onClose} className="cog-form-dialog cog-collect-dialog" icon={<FolderIcon size={20} />} description={t('collect.text', { title: cognition.title })}>
      {collections === null ? (
        <div className="cog-collect-loading">
          <span className="spinner" />
        </div>
      ) : collections.length === 0 ? (
        <p className="cog-collect-empty">{t('collect.empty')}</p>
      ) : (
        <ul className="cog-collect-list">
          {collections.map((collection) => {
            const done = added.has(collection.id);
            return (
              <li key={collection.id}>
                <FolderIcon size={17} />
                <span className="cog-collect-name">
                  <strong>{collection.name}</strong>
                  <small>{t('collect.count', { count: collection.count })}</small>
                </span>
                <button
                  type="button"
                  className={`button button-small ${done ? 'button-secondary' : 'button-primary'}`}
                  disabled={done || pending !== null}
                  aria-label={`${t(done ? 'collect.added' : 'collect.add')} ${collection.name}`}
                  onClick={() => void add(collection)}
                >
                  {pending === collection.id ? <span className="spinner spinner-small" /> : done ? <CheckIcon size={14} /> : <PlusIcon size={14} />}
                  {t(done ? 'collect.added' : 'collect.add')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <form
        className="cog-collect-new"
        onSubmit={(event) => {
          event.preventDefault();
          createAndAdd();
        }}
      >
        <input value={name} onChange={(event) => setName(event.target.value)} aria-label={t('collect.newName')} placeholder={t('collect.newPlaceholder')} maxLength={120} />
        <button type="submit" className="button button-secondary button-small" disabled={pending !== null || name.trim() === ''}>
          {pending === 'new' ? <span className="spinner spinner-small" /> : <PlusIcon size={14} />}
          {t('collect.create')}
        </button>
      </form>
      {failure && (
        <p className="cog-form-error" role="alert">
          {failure}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button button-primary" onClick={onClose}>
          {t('collect.done')}
        </button>
      </div>
    </Dialog>
  );
}
