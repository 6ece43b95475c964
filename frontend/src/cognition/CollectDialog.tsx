import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkCollectionName } from './edit.ts';
import { FormError } from './FormParts.tsx';
import { useCollect, useCollections, type CollectTarget } from './queries.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { CheckIcon, FolderIcon, PlusIcon } from '../ui/icons.ts';
import './cognition.css';

/** Puts one cognition into any of the reader's collections, or into a new one made on the spot. */
export function CollectDialog({ cognition, onClose }: { cognition: { id: string; title: string }; onClose: () => void }) {
  const { t } = useTranslation('cognition');
  const list = useCollections();
  const [added, setAdded] = useState<ReadonlySet<string>>(new Set());
  const [name, setName] = useState('');
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const collect = useCollect(
    cognition.id,
    () => setName(''),
    (updated) => setAdded((previous) => new Set(previous).add(updated.id)),
  );

  const pending = collect.isPending ? ('id' in collect.variables ? collect.variables.id : 'new') : null;
  // A list that could not be read shows as empty, with the reason below.
  const collections = list.isPending ? null : (list.data ?? []);

  const add = (target: CollectTarget) => {
    setNameProblem(null);
    collect.mutate(target);
  };

  const createAndAdd = () => {
    const checked = checkCollectionName(name);
    if (!checked.ok) {
      collect.reset();
      return setNameProblem(t(`collectionDialog.errors.${checked.error}`));
    }
    add({ name: checked.name });
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
                  onClick={() => add(collection)}
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
      <FormError message={nameProblem} error={collect.error ?? list.error} />
      <div className="dialog-actions">
        <button type="button" className="button button-primary" onClick={onClose}>
          {t('collect.done')}
        </button>
      </div>
    </Dialog>
  );
}
