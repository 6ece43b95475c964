import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createCollection, updateCollection, type Collection } from '../api/cognition.ts';
import { Field } from '../components/Field.tsx';
import { checkCollectionName } from './edit.ts';
import { errorMessage } from './errors.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { TextAreaField } from './TextAreaField.tsx';
import './cognition.css';

/** Creates a collection, or edits one's name and description when `collection` is given. */
export function CollectionDialog({ collection, onSaved, onClose }: { collection?: Collection; onSaved: (saved: Collection) => void; onClose: () => void }) {
  const { t } = useTranslation('cognition');
  const [name, setName] = useState(collection?.name ?? '');
  const [description, setDescription] = useState(collection?.description ?? '');
  const [nameError, setNameError] = useState<'nameRequired' | 'nameTooLong' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const title = t(collection ? 'collectionDialog.renameTitle' : 'collectionDialog.createTitle');

  return (
    <Dialog title={title} onClose={onClose} busy={busy} className="cog-form-dialog">
      <form
        className="cog-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const checked = checkCollectionName(name);
          if (!checked.ok) return setNameError(checked.error);
          setBusy(true);
          setFailure(null);
          const saving = collection ? updateCollection(collection.id, { name: checked.name, description: description.trim() }) : createCollection(checked.name, description.trim());
          saving.then(
            (saved) => {
              onSaved(saved);
              onClose();
            },
            (error: unknown) => {
              setBusy(false);
              setFailure(errorMessage(error));
            },
          );
        }}
      >
        <Field
          label={t('collectionDialog.name')}
          value={name}
          autoFocus
          error={nameError ? t(`collectionDialog.errors.${nameError}`) : undefined}
          onChange={(event) => {
            setName(event.target.value);
            setNameError(null);
          }}
        />
        <TextAreaField label={t('collectionDialog.description')} value={description} placeholder={t('collectionDialog.descriptionPlaceholder')} rows={3} onChange={setDescription} />
        {failure && (
          <p className="cog-form-error" role="alert">
            {failure}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={onClose} disabled={busy}>
            {t('collectionDialog.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy && <span className="spinner spinner-small" />}
            {t(collection ? 'collectionDialog.save' : 'collectionDialog.create')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
