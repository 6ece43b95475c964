import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Collection } from './api.ts';
import { Field } from '../components/Field.tsx';
import { checkCollectionName } from './edit.ts';
import { FormActions, FormError } from './FormParts.tsx';
import { useSaveCollection } from './queries.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { TextAreaField } from './TextAreaField.tsx';
import './cognition.css';

/** Creates a collection, or edits one's name and description when `collection` is given; the cache gets the answer. */
export function CollectionDialog({ collection, onClose }: { collection?: Collection; onClose: () => void }) {
  const { t } = useTranslation('cognition');
  const [name, setName] = useState(collection?.name ?? '');
  const [description, setDescription] = useState(collection?.description ?? '');
  const [nameError, setNameError] = useState<'nameRequired' | 'nameTooLong' | null>(null);
  const save = useSaveCollection(collection, onClose);

  const title = t(collection ? 'collectionDialog.renameTitle' : 'collectionDialog.createTitle');

  return (
    <Dialog title={title} onClose={onClose} busy={save.isPending} className="cog-form-dialog">
      <form
        className="cog-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const checked = checkCollectionName(name);
          if (!checked.ok) return setNameError(checked.error);
          save.mutate({ name: checked.name, description: description.trim() });
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
        <FormError error={save.error} />
        <FormActions busy={save.isPending} cancelLabel={t('collectionDialog.cancel')} submitLabel={t(collection ? 'collectionDialog.save' : 'collectionDialog.create')} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
