import { Dialog as Primitive, VisuallyHidden } from 'radix-ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { XIcon } from './icons.ts';
import { useReturnFocus } from './returnFocus.ts';
import './ui.css';

export interface DialogProps {
  /** Controlled; screens that mount the dialog only while it is shown leave it at true. */
  open?: boolean;
  onClose: () => void;
  title: ReactNode;
  /** Read out with the title when the dialog opens. */
  description?: ReactNode;
  /** For dialogs whose body already shows its own heading: the title still names the dialog. */
  hideTitle?: boolean;
  /** A glyph in a tinted square beside the title. */
  icon?: ReactNode;
  /** While a request runs, Escape, a click outside and the close button must not drop it half-way. */
  busy?: boolean;
  className?: string;
  children?: ReactNode;
}

/**
 * The one modal frame: focus moves in and is trapped, Escape and a click outside close it, focus
 * returns to what opened it, and the title and description label it.
 */
export function Dialog({ open = true, onClose, title, description, hideTitle = false, icon, busy = false, className = '', children }: DialogProps) {
  const { t } = useTranslation();
  const returnFocus = useReturnFocus(open);
  const heading = (
    <>
      <Primitive.Title className="dialog-title">{title}</Primitive.Title>
      {description && <Primitive.Description className="dialog-description">{description}</Primitive.Description>}
    </>
  );
  return (
    <Primitive.Root open={open} onOpenChange={(next) => !next && !busy && onClose()}>
      <Primitive.Portal>
        <Primitive.Overlay className="dialog-overlay" />
        <Primitive.Content className={`dialog ${className}`} onCloseAutoFocus={returnFocus} onEscapeKeyDown={(event) => busy && event.preventDefault()} onPointerDownOutside={(event) => busy && event.preventDefault()}>
          <Primitive.Close className="icon-button dialog-close" disabled={busy} aria-label={t('ui.close')}>
            <XIcon size={18} />
          </Primitive.Close>
          {hideTitle ? (
            <VisuallyHidden.Root>{heading}</VisuallyHidden.Root>
          ) : icon ? (
            <div className="dialog-head">
              <span className="dialog-icon">{icon}</span>
              <div>{heading}</div>
            </div>
          ) : (
            heading
          )}
          {children}
        </Primitive.Content>
      </Primitive.Portal>
    </Primitive.Root>
  );
}
