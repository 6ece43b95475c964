import type { ModelDelta } from './port.ts';

/** What `stopAt` yields: the model's deltas, the text cut before the first stop sequence. */
export interface StopOutcome {
  /** True once a stop sequence was met; the text after it was dropped. */
  stopped: boolean;
}

/**
 * Cuts a stream's text before the first occurrence of any stop sequence, as OpenAI's `stop` does (the
 * sequence itself is not returned). Text that could be the start of a sequence is held back until the
 * next piece decides it, so a sequence split across pieces is still found. After a stop the rest of
 * the stream is still read, without passing its text on: the usage delta comes last, and the call is
 * charged for what the model produced. Servers asked for `stop` themselves end there anyway.
 */
export async function* stopAt(stream: AsyncIterable<ModelDelta>, stops: readonly string[], outcome: StopOutcome = { stopped: false }): AsyncGenerator<ModelDelta> {
  const sequences = stops.filter((stop) => stop.length > 0);
  if (sequences.length === 0) {
    yield* stream;
    return;
  }
  let pending = '';
  // Text held back and not yet passed on, cut at its first stop sequence if it holds one.
  function* settle(): Generator<ModelDelta> {
    if (outcome.stopped || !pending) return;
    const cut = firstStop(pending, sequences);
    if (cut !== -1) outcome.stopped = true;
    const text = cut === -1 ? pending : pending.slice(0, cut);
    pending = '';
    if (text) yield { type: 'text', text };
  }
  for await (const delta of stream) {
    if (delta.type !== 'text') {
      yield* settle();
      yield delta;
      continue;
    }
    if (outcome.stopped) continue;
    pending += delta.text;
    const cut = firstStop(pending, sequences);
    if (cut !== -1) {
      // A longer sequence that began earlier may still be arriving ("caa" and "a" in "ca…"): wait for it.
      if (!startsBefore(pending, cut, sequences)) yield* settle();
      continue;
    }
    const keep = heldBack(pending, sequences);
    if (keep < pending.length) {
      yield { type: 'text', text: pending.slice(0, pending.length - keep) };
      pending = pending.slice(pending.length - keep);
    }
  }
  yield* settle();
}

/** Whether some sequence could still match at a position before `cut`, given more text. */
function startsBefore(text: string, cut: number, sequences: readonly string[]): boolean {
  for (let at = 0; at < cut; at++) {
    const rest = text.slice(at);
    if (sequences.some((sequence) => sequence.length > rest.length && sequence.startsWith(rest))) return true;
  }
  return false;
}

function firstStop(text: string, sequences: readonly string[]): number {
  let first = -1;
  for (const sequence of sequences) {
    const at = text.indexOf(sequence);
    if (at !== -1 && (first === -1 || at < first)) first = at;
  }
  return first;
}

/** How many trailing characters of `text` could begin a stop sequence. */
function heldBack(text: string, sequences: readonly string[]): number {
  let longest = 0;
  for (const sequence of sequences) {
    for (let length = Math.min(sequence.length - 1, text.length); length > longest; length--) {
      if (text.endsWith(sequence.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}
