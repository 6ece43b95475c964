import type { ComponentItemConfig, ItemConfig, LayoutConfig, RootItemConfig, RowOrColumnItemConfig } from 'golden-layout';
import type { LayoutPreset } from '@scriptorium/domain/protocol/http/conversation';

export type PanelType = 'welcome-guide' | 'conversation' | 'canvas' | 'artifact' | 'note-page';

/** Spec §2: in stage 2 the conversation and the editor or artifact share the width 40% / 60%. */
export const DUAL_WIDTHS = { conversation: '40%', side: '60%' } as const;

export interface LayoutInput {
  preset: LayoutPreset;
  /** The stage-2 panel, if any. */
  side: 'canvas' | 'artifact' | null;
  notes: boolean;
  locked: boolean;
  /** A phone-sized screen: the panels are tabs of one stack, one shown at a time. */
  compact: boolean;
  titles: Record<PanelType, string>;
}

// golden-layout lets a panel be dragged out of its stack only when it could be closed, so an unlocked
// panel is closable; closing it is the same as hiding it from the toolbar.
const component = (type: PanelType, titles: LayoutInput['titles'], locked: boolean, size?: string): ComponentItemConfig => ({
  type: 'component',
  componentType: type,
  title: titles[type],
  id: type,
  isClosable: !locked,
  ...(size !== undefined && { size }),
});

/**
 * The layout for a session: stage 1 is one panel (welcome guide or chat stream), stage 2 puts the
 * canvas editor or the artifact beside the chat. Locked, nothing can be dragged or maximised.
 */
export function layoutConfig(input: LayoutInput): LayoutConfig {
  const main = input.preset === 'home-welcome' && input.side === null ? 'welcome-guide' : 'conversation';
  if (input.compact) return compactLayout(main, input);
  const content: ComponentItemConfig[] = [component(main, input.titles, input.locked, input.side ? DUAL_WIDTHS.conversation : undefined)];
  if (input.side) content.push(component(input.side, input.titles, input.locked, DUAL_WIDTHS.side));
  if (input.notes) content.push(component('note-page', input.titles, input.locked, '30%'));
  const root: RowOrColumnItemConfig | ComponentItemConfig = content.length === 1 ? content[0]! : { type: 'row', content };
  return {
    root,
    settings: { reorderEnabled: !input.locked, popoutWholeStack: false },
    header: { show: input.locked ? false : 'top', popout: false, maximise: input.locked ? false : 'maximise', close: input.locked ? false : 'close' },
    dimensions: { borderWidth: 6, headerHeight: 30, dragProxyWidth: 240, dragProxyHeight: 160 },
  };
}

/**
 * On a phone-sized screen side-by-side panels would each be a sliver: they become tabs of one stack,
 * the conversation first, whether the layout is locked or not (tabs are how one reaches the others).
 */
function compactLayout(main: PanelType, input: LayoutInput): LayoutConfig {
  const panels: PanelType[] = [main, ...(input.side ? [input.side] : []), ...(input.notes ? (['note-page'] as const) : [])];
  const content = panels.map((type) => component(type, input.titles, true));
  return {
    root: content.length === 1 ? content[0]! : { type: 'stack', content, activeItemIndex: 0 },
    settings: { reorderEnabled: false, popoutWholeStack: false },
    header: { show: content.length === 1 ? false : 'top', popout: false, maximise: false, close: false },
    dimensions: { borderWidth: 0, headerHeight: 36, dragProxyWidth: 240, dragProxyHeight: 160 },
  };
}

/** Stage 2 starts when an editor or an artifact is shown. */
export const stageOf = (side: LayoutInput['side']): 1 | 2 => (side ? 2 : 1);

/**
 * A layout the user arranged by hand (unlocked, panels dragged) is kept per session, for the same set
 * of panels it was made with: a reload shows it again, and a stage change (another panel set) starts
 * from the preset instead.
 */
export interface Arrangement {
  panels: string;
  root: RootItemConfig;
}

export const ARRANGEMENT_KEY_PREFIX = 'research_layout:';
export const arrangementKey = (sessionId: string): string => `${ARRANGEMENT_KEY_PREFIX}${sessionId}`;

/** The panels a layout shows, as one comparable string. */
export function panelSet(config: LayoutConfig): string {
  const found: string[] = [];
  const walk = (item: ItemConfig | undefined): void => {
    if (!item) return;
    if (item.type === 'component') found.push(String((item as ComponentItemConfig).componentType));
    else for (const child of (item as RowOrColumnItemConfig).content ?? []) walk(child as ItemConfig);
  };
  walk(config.root);
  return found.sort().join(',');
}

/** Makes every panel of a kept arrangement closable (draggable) or not, as the lock says now. */
function relock(item: ItemConfig, locked: boolean, titles: LayoutInput['titles']): ItemConfig {
  if (item.type === 'component') {
    const panel = item as ComponentItemConfig;
    return { ...panel, isClosable: !locked, title: titles[panel.componentType as PanelType] ?? panel.title };
  }
  const parent = item as RowOrColumnItemConfig;
  return { ...parent, content: (parent.content ?? []).map((child) => relock(child as ItemConfig, locked, titles)) } as ItemConfig;
}

/** The preset's layout, or the user's own arrangement of the same panels when one is kept. */
export function arrangedLayout(input: LayoutInput, kept: Arrangement | null): LayoutConfig {
  const preset = layoutConfig(input);
  // An arrangement made on a wide screen does not fit a phone's; it is kept for the next wide one.
  if (!kept || input.compact || kept.panels !== panelSet(preset)) return preset;
  return { ...preset, root: relock(kept.root, input.locked, input.titles) as RootItemConfig };
}
