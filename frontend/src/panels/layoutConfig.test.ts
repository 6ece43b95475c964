import test from 'ava';
import { layoutConfig, stageOf } from './layoutConfig.ts';

const titles = { 'welcome-guide': 'W', conversation: 'C', canvas: 'E', artifact: 'A', 'note-page': 'N' };

test('stage 1 is one panel: the welcome guide or the chat stream', (t) => {
  t.deepEqual((layoutConfig({ preset: 'home-welcome', side: null, notes: false, locked: true, titles }).root as { componentType: string }).componentType, 'welcome-guide');
  t.deepEqual((layoutConfig({ preset: 'chat-interface-only', side: null, notes: false, locked: true, titles }).root as { componentType: string }).componentType, 'conversation');
  t.is(stageOf(null), 1);
});

test('stage 2 puts the chat at 40% beside the canvas or artifact at 60%', (t) => {
  const config = layoutConfig({ preset: 'home-welcome', side: 'canvas', notes: false, locked: true, titles });
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
  t.false(layoutConfig({ preset: 'chat-interface-only', side: null, notes: false, locked: true, titles }).settings?.reorderEnabled);
  const unlocked = layoutConfig({ preset: 'chat-interface-only', side: 'artifact', notes: true, locked: false, titles });
  t.true(unlocked.settings?.reorderEnabled);
  t.is(unlocked.header?.show, 'top');
  // Dragging a panel out of its stack needs it closable in golden-layout.
  t.true((unlocked.root as { content: Array<{ isClosable: boolean }> }).content.every((item) => item.isClosable));
});
