import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * Radix gives focus back to a dialog's `Trigger` when it closes; ours open from state (a menu item, a
 * button that also does other work), so there is no trigger and focus fell to the page's start. This
 * remembers what had focus when the dialog opened (a layout effect runs before Radix moves focus in)
 * and is the dialog's `onCloseAutoFocus`: it focuses that element again while it is still on the page.
 */
/**
 * When what had focus in a dialog goes away (the button that created a link, replaced by the link),
 * Radix gives focus to the dialog itself; the element that mounts with this takes it instead.
 */
export function useFocusWhenLost(target: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const timer = setTimeout(() => {
      const active = document.activeElement;
      if (active === document.body || active?.getAttribute('role') === 'dialog') target.current?.focus();
    }, 0);
    return () => clearTimeout(timer);
  }, [target]);
}

export function useReturnFocus(open: boolean): (event: Event) => void {
  const returnTo = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open) returnTo.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
  }, [open]);
  return (event) => {
    const target = returnTo.current;
    if (target === null || !target.isConnected) return;
    event.preventDefault();
    target.focus({ preventScroll: true });
  };
}

/**
 * Focus the app hands to a field (the composer after a new layout) is not the user filling it in:
 * the field is marked `data-focus-from-app` until the user acts in it (a key, a pointer) or leaves
 * it, so what waits for the user to finish (the first-visit tips) is not held back by it.
 */
export function handFocus(element: HTMLElement | null): void {
  if (!element) return;
  element.dataset.focusFromApp = 'true';
  const taken = new AbortController();
  const userActs = () => {
    delete element.dataset.focusFromApp;
    taken.abort();
  };
  for (const type of ['keydown', 'pointerdown', 'blur']) element.addEventListener(type, userActs, { signal: taken.signal });
  element.focus();
}
