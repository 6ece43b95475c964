/** Guidance tips (spec §2, §3): first-visit welcome, input mode, artifacts folder, session sidebar. */
export type TipPosition = 'top' | 'bottom' | 'left' | 'right' | 'center';

export interface GuidanceItem {
  id: string;
  /** i18n keys under `guidance.<id>`. */
  title: string;
  content: string;
  position: TipPosition;
  priority: 1 | 2 | 3 | 4;
  trigger: 'first-visit' | 'manual';
  /** CSS selector of the element the tip points at; absent for centred tips. */
  component?: string;
  /**
   * `welcome-screen`: only while the research view shows its welcome screen; once a conversation
   * takes its place the tip goes, counted as seen, rather than float over the conversation.
   */
  scope?: 'welcome-screen';
  showOnce: boolean;
  autoShow: boolean;
  size: 'small' | 'medium' | 'large';
  theme: 'light' | 'primary';
  delay: number;
}

export const GUIDANCE_SEEN_KEY = 'guidance_seen';
export const GUIDANCE_ENABLED_KEY = 'guidance_enabled';

export const GUIDANCE_ITEMS: readonly GuidanceItem[] = [
  { id: 'welcome', title: 'guidance.welcome.title', content: 'guidance.welcome.content', position: 'center', priority: 1, trigger: 'first-visit', scope: 'welcome-screen', showOnce: true, autoShow: true, size: 'large', theme: 'primary', delay: 0 },
  { id: 'inputMode', title: 'guidance.inputMode.title', content: 'guidance.inputMode.content', position: 'top', priority: 2, trigger: 'first-visit', component: '[data-guide="input-mode"]', showOnce: true, autoShow: true, size: 'medium', theme: 'light', delay: 300 },
  { id: 'artifacts', title: 'guidance.artifacts.title', content: 'guidance.artifacts.content', position: 'bottom', priority: 3, trigger: 'first-visit', component: '[data-guide="artifacts"]', showOnce: true, autoShow: true, size: 'medium', theme: 'light', delay: 300 },
  { id: 'sessions', title: 'guidance.sessions.title', content: 'guidance.sessions.content', position: 'right', priority: 4, trigger: 'first-visit', component: '[data-guide="sessions"]', showOnce: true, autoShow: true, size: 'medium', theme: 'light', delay: 300 },
];

export interface GuidanceStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function seenList(storage: GuidanceStorage): string[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(GUIDANCE_SEEN_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export const guidanceEnabled = (storage: GuidanceStorage): boolean => storage.getItem(GUIDANCE_ENABLED_KEY) !== 'false';

/** What the page shows now: which elements are there, and whether it is the welcome screen. */
export interface GuidancePage {
  present: (selector: string) => boolean;
  welcomeScreen: boolean;
}

/** Whether a tip fits the page as it is: its element is there and so is its screen. */
export const fitsPage = (item: GuidanceItem, page: GuidancePage): boolean =>
  (item.component === undefined || page.present(item.component)) && (item.scope !== 'welcome-screen' || page.welcomeScreen);

/** The tips still to show automatically, in priority order; showOnce tips already seen are skipped. */
export function pendingTips(items: readonly GuidanceItem[], storage: GuidanceStorage, page: GuidancePage): GuidanceItem[] {
  if (!guidanceEnabled(storage)) return [];
  const seen = new Set(seenList(storage));
  return items.filter((item) => item.autoShow && !(item.showOnce && seen.has(item.id)) && fitsPage(item, page)).sort((a, b) => a.priority - b.priority);
}

export function markSeen(storage: GuidanceStorage, id: string): void {
  const seen = seenList(storage);
  if (!seen.includes(id)) storage.setItem(GUIDANCE_SEEN_KEY, JSON.stringify([...seen, id]));
}

export const setGuidanceEnabled = (storage: GuidanceStorage, enabled: boolean): void => storage.setItem(GUIDANCE_ENABLED_KEY, String(enabled));

/** Forms a tip must never cover: an unanswered clarification, a targeted edit, unsaved canvas edits, a rename, a dialog. */
export const FORMS_IN_USE = 'form.clarification, form.edit-popover, .canvas-savebar, form.session-rename, form.manual-feedback, dialog[open]';

/** The attribute `handFocus` puts on a field the app focused and the user has not yet acted in. */
export const FOCUS_FROM_APP = 'data-focus-from-app';

/**
 * Whether the user is filling something in: typing in a field, or a form from FORMS_IN_USE is open.
 * A field the app focused by itself (marked FOCUS_FROM_APP) does not count until the user acts in it.
 */
export function fillingIn(active: { tagName: string; isContentEditable?: boolean; hasAttribute?: (name: string) => boolean } | null, openForms: number): boolean {
  if (openForms > 0) return true;
  if (!active || active.hasAttribute?.(FOCUS_FROM_APP) === true) return false;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(active.tagName) || active.isContentEditable === true;
}

/** What a tip may sit beside but never on: the open "report written, what next?" question, and the button that continues a stopped reply. */
export const KEEP_CLEAR = '.card.feedback, .resume-row';

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export const overlaps = (a: Box, b: Box): boolean => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
