import test from 'ava';
import { regressions, type Summary } from './summary.ts';

const baseline: Summary = {
  tasks: 5,
  completed: 5,
  cited: 75,
  supported: 64,
  accuracy: 0.853,
  effective: 15,
  dangling: 4,
  fabricated: 4,
  misattributed: 3,
  citedUnread: 2,
  mistakesInjected: 11,
  mistakesRepaired: 0,
  mistakesMarked: 0,
  mistakesPublished: 11,
  marked: 0,
  correctMarked: 0,
  deepFactCited: 0,
  deepFactShown: 3,
  contradictionReported: 2,
  repeated: 3,
  pagesRead: 14,
  searchRounds: 15,
  followUpSearches: 0,
  searchLanguageOk: 5,
  modelCalls: 58,
  maxInFlight: 1,
  promptTokens: 100_000,
  completionTokens: 8000,
  wallMs: 15_000,
};

test('the same figures, better ones, and moves within the tolerance are no regression', (t) => {
  t.deepEqual(regressions(baseline, baseline), []);
  t.deepEqual(regressions(baseline, { ...baseline, accuracy: 0.95, dangling: 0, deepFactCited: 5, pagesRead: 30, promptTokens: 40_000, maxInFlight: 4, wallMs: 90_000 }), []);
  t.deepEqual(regressions(baseline, { ...baseline, accuracy: 0.81, dangling: 5, promptTokens: 124_000, effective: 14 }), []);
});

test('a task that no longer completes, a citation accuracy 5 points down, more dangling numbers or many more tokens is a regression', (t) => {
  const keys = (now: Partial<Summary>) => regressions(baseline, { ...baseline, ...now }).map((regression) => regression.key);
  t.deepEqual(keys({ completed: 4 }), ['completed']);
  t.deepEqual(keys({ accuracy: 0.79 }), ['accuracy']);
  t.deepEqual(keys({ accuracy: null }), ['accuracy']);
  t.deepEqual(keys({ dangling: 6, fabricated: 6 }), ['dangling', 'fabricated']);
  t.deepEqual(keys({ promptTokens: 126_000 }), ['promptTokens']);
  t.deepEqual(keys({ searchLanguageOk: 3, pagesRead: 10 }), ['pagesRead', 'searchLanguageOk']);
  t.deepEqual(keys({ repeated: 4 }), [], 'one fact more restated is within the tolerance');
  t.deepEqual(keys({ repeated: 5 }), ['repeated']);
});

test('a mistake published that was repaired or marked before, or a correct citation marked, is a regression', (t) => {
  const checked = { ...baseline, mistakesRepaired: 9, mistakesMarked: 2, mistakesPublished: 0 };
  t.deepEqual(
    regressions(checked, { ...checked, mistakesPublished: 2, correctMarked: 2 }).map((regression) => regression.key),
    ['mistakesPublished', 'correctMarked'],
  );
});
