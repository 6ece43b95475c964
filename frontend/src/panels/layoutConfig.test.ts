import test from 'ava';
import type { ComponentItemConfig } from 'golden-layout';
import { arrangedLayout, layoutConfig, panelSet, stageOf } from './layoutConfig.ts';

const titles = { 'welcome-guide': 'W', conversation: 'C', canvas: 'E', artifact: 'A', 'note-page': 'N' };

test('stage 1 is one panel: the welcome guide or the chat stream', (t) => {
  t.deepEqual((layoutConfig({ preset: 'home-welcome', side: null, notes: false, locked: true, compact: false, titles }).root as { componentType: string }).componentType, 'welcome-guide');
  t.deepEqual((layoutConfig({ preset: 'chat-interface-only', side: null, notes: false, locked: true, compact: false, titles }).root as { componentType: string }).componentType, 'conversation');
  t.is(stageOf(null), 1);
});

test('stage 2 puts the chat at 40% beside the canvas or artifact at 60%', (t) => {
  const config = layoutConfig({ preset: 'home-welcome', side: 'canvas', notes: false, locked: true, compact: false, titles });
  const root = config.root as { type: string; content: Array<{ componentType: string; size: string }> };
  t.is(root.type, 'row');
  t.deepEqual(
    root.content.map((item) => [item.componentType, item.size]),
    [
      ['conversation', '40%'],
      ['canvas', '60%'],
    ],
  );
  t.is(stageOf('artifact'), 2);
});

test('locked layouts cannot be rearranged; unlocked ones show headers', (t) => {
  t.false(layoutConfig({ preset: 'chat-interface-only', side: null, notes: false, locked: true, compact: false, titles }).settings?.reorderEnabled);
  const unlocked = layoutConfig({ preset: 'chat-interface-only', side: 'artifact', notes: true, locked: false, compact: false, titles });
  t.true(unlocked.settings?.reorderEnabled);
  t.is(unlocked.header?.show, 'top');
  // Dragging a panel out of its stack needs it closable in golden-layout.
  t.true((unlocked.root as { content: Array<{ isClosable: boolean }> }).content.every((item) => item.isClosable));
});

test('a kept arrangement of the same panels replaces the preset, locked or not as the layout is now', (t) => {
  const input = { preset: 'home-welcome' as const, side: 'canvas' as const, notes: false, locked: false, compact: false, titles };
  const preset = layoutConfig(input);
  const swapped = { type: 'row' as const, content: [...(preset.root as { content: ComponentItemConfig[] }).content].reverse() };
  const kept = { panels: panelSet(preset), root: swapped };
  const unlocked = arrangedLayout(input, kept).root as { content: ComponentItemConfig[] };
  t.deepEqual(unlocked.content.map((item) => [item.componentType, item.isClosable]), [['canvas', true], ['conversation', true]]);
  const locked = arrangedLayout({ ...input, locked: true }, kept).root as { content: ComponentItemConfig[] };
  t.deepEqual(locked.content.map((item) => item.isClosable), [false, false]);
  t.false(arrangedLayout({ ...input, locked: true }, kept).settings?.reorderEnabled);
});

test('an arrangement of other panels (another stage) is not used', (t) => {
  const stageOne = layoutConfig({ preset: 'home-welcome', side: null, notes: false, locked: false, compact: false, titles });
  const kept = { panels: panelSet(stageOne), root: stageOne.root! };
  const stageTwo = { preset: 'home-welcome' as const, side: 'canvas' as const, notes: false, locked: false, compact: false, titles };
  t.deepEqual(arrangedLayout(stageTwo, kept), layoutConfig(stageTwo));
  t.is(panelSet(layoutConfig(stageTwo)), 'canvas,conversation');
});

test('on a phone-sized screen the panels are tabs of one stack, the conversation shown, and no kept arrangement applies', (t) => {
  const input = { preset: 'home-welcome' as const, side: 'canvas' as const, notes: true, locked: true, compact: true, titles };
  const config = layoutConfig(input);
  const root = config.root as { type: string; activeItemIndex: number; content: ComponentItemConfig[] };
  t.is(root.type, 'stack');
  t.deepEqual(root.content.map((item) => item.componentType), ['conversation', 'canvas', 'note-page']);
  t.is(root.activeItemIndex, 0);
  t.is(config.header?.show, 'top', 'the tabs show even when the layout is locked');
  t.false(config.settings?.reorderEnabled);
  const kept = { panels: panelSet(config), root: { type: 'row' as const, content: [...root.content].reverse() } };
  t.deepEqual(arrangedLayout(input, kept), config);
  t.is((layoutConfig({ ...input, side: null, notes: false }).root as ComponentItemConfig).componentType, 'welcome-guide', 'one panel is just that panel');
});
