import test from 'ava';
import { anyErrorText } from './errors.ts';
import { runNote, runNoteCode, type RunAnswerer } from './trajectories.ts';

test('every answer note a trajectory records has a catalogue code whose Chinese is the note itself; other text has none', (t) => {
  const answers: Array<[boolean, RunAnswerer]> = [
    [true, 'terminal'],
    [true, 'browser'],
    [false, 'terminal'],
    [false, 'browser'],
    [false, 'ended'],
  ];
  for (const [approved, by] of answers) {
    const note = runNote(approved, by);
    const code = runNoteCode(note);
    t.truthy(code, note);
    t.is(anyErrorText(code!, {}, 'zh'), note);
    t.notRegex(anyErrorText(code!, {}, 'en'), /[\u4e00-\u9fff]/);
  }
  t.is(runNoteCode('exit 0'), undefined);
  t.is(runNoteCode(`${runNote(true, 'terminal')} `), undefined);
});
