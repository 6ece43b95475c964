import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../components/Field.tsx';
import { checkPageUrl } from './edit.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { GlobeIcon, SparklesIcon } from '../ui/icons.ts';
import './cognition.css';

/** Asks for the page to extract from; the extraction itself is shown by ExtractionDialog. */
export function UrlExtractDialog({ onSubmit, onClose }: { onSubmit: (url: string) => void; onClose: () => void }) {
  const { t } = useTranslation('cognition');
  const [text, setText] = useState('');
  const [error, setError] = useState<'urlRequired' | 'urlInvalid' | null>(null);
  return (
    <Dialog title={t('url.title')} onClose={onClose} className="cog-form-dialog" icon={<GlobeIcon size={20} />} description={t('url.text')}>
      <form
        className="cog-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const checked = checkPageUrl(text);
          if (!checked.ok) return setError(checked.error);
          onSubmit(checked.url);
        }}
      >
        <Field
          label={t('url.label')}
          type="url"
          inputMode="url"
          autoFocus
          placeholder={t('url.placeholder')}
          value={text}
          error={error ? t(`url.errors.${error}`) : undefined}
          onChange={(event) => {
            setText(event.target.value);
            setError(null);
          }}
        />
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('url.cancel')}
          </button>
          <button type="submit" className="button button-primary">
            <SparklesIcon size={16} />
            {t('url.submit')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
