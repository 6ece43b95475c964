import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * A panel in its own browser window. Rendering through a portal keeps it on this page's live state
 * (the same socket and session), where a reloaded copy of the app would have to rebuild it.
 */
export function PopoutWindow({ title, left, top, width, height, onClose, children }: { title: string; left: number; top: number; width: number; height: number; onClose: () => void; children: ReactNode }) {
  const [target, setTarget] = useState<HTMLElement | null>(null);

  // The window is opened once, where the panel was and with its title at the time: a new title does not warrant a new window.
  const openWindow = useEffectEvent(() => {
    const popup = window.open('', '', `popup=yes,left=${left},top=${top},width=${width},height=${height}`);
    if (popup) popup.document.title = title;
    return popup;
  });
  const closed = useEffectEvent(() => onClose());

  useEffect(() => {
    const popup = openWindow();
    const onPageHide = () => closed();
    if (!popup) {
      closed();
      return;
    }
    popup.document.documentElement.lang = document.documentElement.lang;
    for (const node of document.head.querySelectorAll('style, link[rel="stylesheet"]')) popup.document.head.appendChild(node.cloneNode(true));
    const root = popup.document.createElement('div');
    root.className = 'popout-root';
    popup.document.body.appendChild(root);
    popup.addEventListener('pagehide', onPageHide);
    setTarget(root);
    return () => {
      popup.removeEventListener('pagehide', onPageHide);
      popup.close();
    };
  }, []);

  return target ? createPortal(children, target) : null;
}
