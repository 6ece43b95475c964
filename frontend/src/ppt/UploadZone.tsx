import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FileIcon, PlusIcon } from '../ui/icons.ts';
import { PPTX_ACCEPT } from './review.ts';

/** Drag a deck onto the zone or pick it with the button; the server checks what it is. */
export function UploadZone({ busy, onFile }: { busy: boolean; onFile: (file: File) => void }) {
  const { t } = useTranslation('ppt');
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const dropped = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file && !busy) onFile(file);
  };

  return (
    <div
      className={`ppt-drop${over ? ' ppt-drop-over' : ''}`}
      data-testid="ppt-drop"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={dropped}
    >
      {busy ? (
        <>
          <span className="spinner" />
          <p>{t('upload.uploading')}</p>
        </>
      ) : (
        <>
          <FileIcon size={28} className="ppt-drop-icon" />
          <p className="ppt-drop-title">{over ? t('upload.dropping') : t('upload.drop')}</p>
          <p className="muted">{t('upload.or')}</p>
          <button type="button" className="button button-primary button-small" onClick={() => input.current?.click()}>
            <PlusIcon size={14} />
            {t('upload.choose')}
          </button>
          <p className="muted ppt-drop-hint">{t('upload.hint')}</p>
        </>
      )}
      <input
        ref={input}
        type="file"
        accept={PPTX_ACCEPT}
        hidden
        aria-label={t('upload.choose')}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
    </div>
  );
}
