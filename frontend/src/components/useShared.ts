import { useEffect, useState } from 'react';

/**
 * What a public link shows while it loads: `null` until the answer, `'missing'` when the share is
 * gone (or never was), else its content. Re-reads when `key` (the link's id) changes.
 */
export function useShared<T>(load: () => Promise<T>, key: string): T | null | 'missing' {
  const [shared, setShared] = useState<T | null | 'missing'>(null);
  useEffect(() => {
    let live = true;
    setShared(null);
    load().then(
      (loaded) => live && setShared(loaded),
      () => live && setShared('missing'),
    );
    return () => {
      live = false;
    };
    // The loader is a new function each render; the link id is what decides a reload.
  }, [key]);
  return shared;
}
