import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateCognition, type Cognition } from '../api/cognition.ts';
import { Field } from '../components/Field.tsx';
import { checkEdit, tagsText, type EditError, type EditForm } from './edit.ts';
import { errorMessage } from './errors.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { TextAreaField } from './TextAreaField.tsx';
import './cognition.css';

export function EditDialog({ cognition, onSaved, onClose }: { cognition: Cognition; onSaved: (updated: Cognition) => void; onClose: () => void }) {
  const { t } = useTranslation('cognition');
  const [form, setForm] = useState<EditForm>({ title: cognition.title, summary: cognition.summary, tags: tagsText(cognition.tags) });
  const [errors, setErrors] = useState<Partial<Record<keyof EditForm, EditError>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const change = (field: keyof EditForm) => (value: string) => {
    setForm((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
  };
  const errorText = (field: keyof EditForm) => {
    const error = errors[field];
    return error ? t(`edit.errors.${error}`) : undefined;
  };

  return (
    <Dialog title={t('edit.title')} onClose={onClose} busy={busy} className="cog-form-dialog">
      <form
        className="cog-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const checked = checkEdit(form);
          if (!checked.ok) return setErrors(checked.errors);
          setBusy(true);
          setFailure(null);
          updateCognition(cognition.id, checked.patch).then(
            (updated) => {
              onSaved(updated);
              onClose();
            },
            (error: unknown) => {
              setBusy(false);
              setFailure(errorMessage(error));
            },
          );
        }}
      >
        <Field label={t('edit.fieldTitle')} value={form.title} error={errorText('title')} onChange={(event) => change('title')(event.target.value)} />
        <TextAreaField label={t('edit.fieldSummary')} value={form.summary} error={errorText('summary')} onChange={change('summary')} rows={4} />
        <div>
          <Field label={t('edit.fieldTags')} value={form.tags} error={errorText('tags')} onChange={(event) => change('tags')(event.target.value)} />
          {!errors.tags && <p className="cog-field-hint">{t('edit.tagsHint')}</p>}
        </div>
        {failure && (
          <p className="cog-form-error" role="alert">
            {failure}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={onClose} disabled={busy}>
            {t('edit.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy && <span className="spinner spinner-small" />}
            {t('edit.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
