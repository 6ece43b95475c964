import { Toast as Primitive } from 'radix-ui';
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { XIcon } from './icons.ts';
import './ui.css';

export interface ToastOptions {
  title: string;
  description?: string;
  tone?: 'info' | 'success' | 'error';
  /** One action, e.g. Undo; `altText` says how to do it without the toast (screen readers). */
  action?: { label: string; altText: string; onAction: () => void };
  /** Milliseconds; Radix pauses the count while the pointer or focus is on the toast. */
  duration?: number;
  /** While the pointer or focus is on the toast its count stops; whoever counts alongside should too. */
  onPause?: () => void;
  onResume?: () => void;
  /** After the toast is gone for any reason: timed out, dismissed or its action taken. */
  onClosed?: (reason: 'action' | 'dismissed') => void;
}

interface Shown extends ToastOptions {
  id: number;
  open: boolean;
}

const ToastContext = createContext<((options: ToastOptions) => void) | null>(null);

/** Shows toasts in a polite live region at the bottom right (F8 focuses it). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [toasts, setToasts] = useState<Shown[]>([]);
  const next = useRef(0);
  const actedOn = useRef(new Set<number>());
  const show = useCallback((options: ToastOptions) => {
    next.current += 1;
    const id = next.current;
    setToasts((current) => [...current, { ...options, id, open: true }]);
  }, []);
  const close = (toast: Shown) => {
    setToasts((current) => current.map((item) => (item.id === toast.id ? { ...item, open: false } : item)));
    toast.onClosed?.(actedOn.current.delete(toast.id) ? 'action' : 'dismissed');
    // Leaves time for the closing animation before the node goes.
    window.setTimeout(() => setToasts((current) => current.filter((item) => item.id !== toast.id)), 300);
  };
  return (
    <ToastContext.Provider value={show}>
      <Primitive.Provider swipeDirection="right" label={t('ui.notification')}>
        {children}
        {toasts.map((toast) => (
          <Primitive.Root key={toast.id} className={`toast toast-${toast.tone ?? 'info'}`} open={toast.open} duration={toast.duration ?? 5000} onPause={toast.onPause} onResume={toast.onResume} onOpenChange={(open) => !open && close(toast)}>
            <div className="toast-text">
              <Primitive.Title className="toast-title">{toast.title}</Primitive.Title>
              {toast.description && <Primitive.Description className="toast-description">{toast.description}</Primitive.Description>}
            </div>
            {toast.action && (
              <Primitive.Action
                className="button button-secondary button-small"
                altText={toast.action.altText}
                onClick={() => {
                  actedOn.current.add(toast.id);
                  toast.action?.onAction();
                }}
              >
                {toast.action.label}
              </Primitive.Action>
            )}
            <Primitive.Close className="icon-button tiny" aria-label={t('ui.dismiss')}>
              <XIcon size={14} />
            </Primitive.Close>
          </Primitive.Root>
        ))}
        <Primitive.Viewport className="toast-viewport" label={t('ui.notifications')} />
      </Primitive.Provider>
    </ToastContext.Provider>
  );
}

export function useToast(): (options: ToastOptions) => void {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast outside <ToastProvider>');
  return show;
}
