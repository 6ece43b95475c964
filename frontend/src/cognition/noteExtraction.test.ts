import test from 'ava';
import { noteExtractionCheck } from './noteExtraction.ts';

test('no notes: disabled, "select at least 1", alert "select documents first"', (t) => {
  t.deepEqual(noteExtractionCheck(0), { enabled: false, tooltip: 'tooltipNone', alert: 'selectFirst' });
});

test('1 to 5 notes can be extracted', (t) => {
  for (const count of [1, 3, 5]) t.deepEqual(noteExtractionCheck(count), { enabled: true, tooltip: 'tooltipReady', alert: null });
});

test('more than 5: disabled, "at most 5", alert with the research wording', (t) => {
  t.deepEqual(noteExtractionCheck(6), { enabled: false, tooltip: 'tooltipTooMany', alert: 'tooMany' });
});
