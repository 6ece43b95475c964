import test from 'ava';
import { GUIDANCE_ITEMS, markSeen, overlaps, pendingTips, setGuidanceEnabled, fillingIn } from './guidance.ts';

const memory = () => {
  const values = new Map<string, string>();
  return { getItem: (key: string) => values.get(key) ?? null, setItem: (key: string, value: string) => void values.set(key, value) };
};
const everything = { present: () => true, welcomeScreen: true };

test('first visit shows every tip in priority order', (t) => {
  t.deepEqual(
    pendingTips(GUIDANCE_ITEMS, memory(), everything).map((item) => item.id),
    ['welcome', 'inputMode', 'artifacts', 'sessions'],
  );
});

test('showOnce tips are not shown again once seen', (t) => {
  const storage = memory();
  markSeen(storage, 'welcome');
  markSeen(storage, 'welcome');
  t.deepEqual(
    pendingTips(GUIDANCE_ITEMS, storage, everything).map((item) => item.id),
    ['inputMode', 'artifacts', 'sessions'],
  );
  t.is(storage.getItem('guidance_seen'), '["welcome"]');
});

test('disabled guidance shows nothing; tips for absent elements wait', (t) => {
  const storage = memory();
  t.deepEqual(
    pendingTips(GUIDANCE_ITEMS, storage, { present: (selector) => selector.includes('input-mode'), welcomeScreen: true }).map((item) => item.id),
    ['welcome', 'inputMode'],
  );
  setGuidanceEnabled(storage, false);
  t.deepEqual(pendingTips(GUIDANCE_ITEMS, storage, everything), []);
});

test('a corrupt seen-list counts as empty', (t) => {
  const storage = memory();
  storage.setItem('guidance_seen', '{oops');
  t.is(pendingTips(GUIDANCE_ITEMS, storage, everything).length, 4);
});

test('a tip waits while the user fills something in', (t) => {
  t.true(fillingIn({ tagName: 'TEXTAREA' }, 0));
  t.true(fillingIn({ tagName: 'DIV', isContentEditable: true }, 0));
  t.true(fillingIn({ tagName: 'BODY' }, 1), 'an open clarification form');
  t.false(fillingIn({ tagName: 'BUTTON' }, 0));
  t.false(fillingIn(null, 0));
});

test('a field the app focused is not the user filling it in', (t) => {
  const handed = { tagName: 'TEXTAREA', hasAttribute: (name: string) => name === 'data-focus-from-app' };
  t.false(fillingIn(handed, 0), 'the composer focused when a report arrived');
  t.true(fillingIn({ tagName: 'TEXTAREA', hasAttribute: () => false }, 0), 'once the user types in it');
  t.true(fillingIn(handed, 1), 'a form in use still counts');
});

test('the welcome tip belongs to the welcome screen: a conversation already under way gets none', (t) => {
  t.deepEqual(
    pendingTips(GUIDANCE_ITEMS, memory(), { present: () => true, welcomeScreen: false }).map((item) => item.id),
    ['inputMode', 'artifacts', 'sessions'],
  );
});

test('boxes overlap only when they share area; touching edges do not', (t) => {
  const card = { left: 0, top: 100, right: 300, bottom: 200 };
  t.true(overlaps({ left: 250, top: 150, right: 400, bottom: 300 }, card));
  t.false(overlaps({ left: 300, top: 100, right: 400, bottom: 200 }, card), 'side by side');
  t.false(overlaps({ left: 0, top: 200, right: 300, bottom: 260 }, card), 'just below');
});
