import { useSyncExternalStore } from 'react';

/** Screens narrower than a tablet in portrait: one panel at a time, the sidebar over the page. */
export const COMPACT_SCREEN = '(max-width: 767px)';

/** Whether a media query matches now, re-rendering when that changes (a rotated phone, a resized window). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => window.matchMedia(query).matches,
  );
}
