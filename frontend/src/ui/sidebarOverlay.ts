import { createContext, use } from 'react';

/**
 * Closes the app sidebar where it lies over the page (a phone). Navigation closes it by itself; a
 * choice that stays on the same address (a note created or opened on /note) closes it with this.
 */
export const SidebarOverlay = createContext<() => void>(() => undefined);

export const useCloseSidebarOverlay = (): (() => void) => use(SidebarOverlay);
