import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Cognition } from './api.ts';
import { Field } from '../components/Field.tsx';
import { checkEdit, tagsText, type EditError, type EditForm } from './edit.ts';
import { FormActions, FormError } from './FormParts.tsx';
import { useUpdateCognition } from './queries.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { TextAreaField } from './TextAreaField.tsx';
import './cognition.css';

export function EditDialog({ cognition, onClose }: { cognition: Cognition; onClose: () => void }) {
  const { t } = useTranslation('cognition');
  const [form, setForm] = useState<EditForm>({ title: cognition.title, summary: cognition.summary, tags: tagsText(cognition.tags) });
  const [errors, setErrors] = useState<Partial<Record<keyof EditForm, EditError>>>({});
  const save = useUpdateCognition(cognition.id);
  const change = (field: keyof EditForm) => (value: string) => {
    setForm((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
  };
  const errorText = (field: keyof EditForm) => {
    const error = errors[field];
    return error ? t(`edit.errors.${error}`) : undefined;
  };

  return (
    <Dialog title={t('edit.title')} onClose={onClose} busy={save.isPending} className="cog-form-dialog">
      <form
        className="cog-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const checked = checkEdit(form);
          if (!checked.ok) return setErrors(checked.errors);
          save.mutate(checked.patch, { onSuccess: onClose });
        }}
      >
        <Field label={t('edit.fieldTitle')} value={form.title} error={errorText('title')} onChange={(event) => change('title')(event.target.value)} />
        <TextAreaField label={t('edit.fieldSummary')} value={form.summary} error={errorText('summary')} onChange={change('summary')} rows={4} />
        <div>
          <Field label={t('edit.fieldTags')} value={form.tags} error={errorText('tags')} onChange={(event) => change('tags')(event.target.value)} />
          {!errors.tags && <p className="cog-field-hint">{t('edit.tagsHint')}</p>}
        </div>
        <FormError error={save.error} />
        <FormActions busy={save.isPending} cancelLabel={t('edit.cancel')} submitLabel={t('edit.save')} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
