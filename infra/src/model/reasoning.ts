import type { ReasoningFormat } from './profile.ts';

const OPENING = ['<think>', '<thinking>'];
const CLOSING = ['</think>', '</thinking>'];
const ALL_TAGS = [...OPENING, ...CLOSING];

/** What one piece of model content held: the answer's part and the reasoning's. */
export interface Separated {
  text: string;
  reasoning: string;
}

/**
 * Takes reasoning out of a model's content as it streams. `<think>…</think>` and
 * `<thinking>…</thinking>` blocks are removed wherever they stand, and a stray closing tag is
 * dropped; a tag split across pieces is held back until it is whole, so no part of it (nor a `{`
 * inside the reasoning) reaches the caller. With `think_tags` the answer may start inside reasoning
 * whose opening tag the server's chat template swallowed (Qwen3 and DeepSeek-R1 on Ollama or vLLM
 * without a reasoning parser send only `</think>`), so the start is held until a closing tag shows
 * which it was, or the end shows there was none — such a model streams nothing until it has thought.
 */
export class ReasoningFilter {
  private state: 'undecided' | 'text' | 'reasoning';
  private pending = '';
  /** True until visible text went out. */
  private leading = true;
  /** Reasoning came before any text: the blank lines after it are not the answer's. */
  private trimNext = false;

  constructor(format: ReasoningFormat) {
    this.state = format === 'think_tags' ? 'undecided' : 'text';
  }

  /**
   * The server separates reasoning itself (it sent `reasoning_content`), so content that starts
   * without a tag is the answer: nothing needs to wait for a closing tag any more.
   */
  separatedByServer(): Separated {
    if (this.state !== 'undecided') return { text: '', reasoning: '' };
    this.state = 'text';
    return this.push('');
  }

  push(piece: string): Separated {
    this.pending += piece;
    const out: Separated = { text: '', reasoning: '' };
    for (;;) {
      if (this.state === 'undecided') {
        const start = this.pending.trimStart().toLowerCase();
        // Still possibly an opening tag, or one whole: the ordinary rules below decide.
        if (OPENING.some((tag) => start.startsWith(tag) || tag.startsWith(start))) {
          if (OPENING.some((tag) => start.startsWith(tag))) this.state = 'text';
          else break;
          continue;
        }
        const close = find(this.pending, CLOSING);
        if (!close) break;
        out.reasoning += this.pending.slice(0, close.at);
        this.pending = this.pending.slice(close.at + close.tag.length);
        this.state = 'text';
        this.trimNext = true;
        continue;
      }
      if (this.state === 'text') {
        const tag = find(this.pending, ALL_TAGS);
        if (!tag) {
          const keep = partialTagLength(this.pending, ALL_TAGS);
          this.emit(out, this.pending.slice(0, this.pending.length - keep));
          this.pending = this.pending.slice(this.pending.length - keep);
          break;
        }
        const before = this.pending.slice(0, tag.at);
        if (!this.leading || before.trim() !== '') this.emit(out, before);
        this.pending = this.pending.slice(tag.at + tag.tag.length);
        if (OPENING.includes(tag.tag)) this.state = 'reasoning';
        else if (this.leading) this.trimNext = true;
        continue;
      }
      const close = find(this.pending, CLOSING);
      if (!close) {
        const keep = partialTagLength(this.pending, CLOSING);
        out.reasoning += this.pending.slice(0, this.pending.length - keep);
        this.pending = this.pending.slice(this.pending.length - keep);
        break;
      }
      out.reasoning += this.pending.slice(0, close.at);
      this.pending = this.pending.slice(close.at + close.tag.length);
      this.state = 'text';
      if (this.leading) this.trimNext = true;
    }
    return out;
  }

  /** The rest at the end of the content: held text goes out, an unclosed reasoning block does not. */
  end(): Separated {
    const rest = this.pending;
    this.pending = '';
    if (this.state === 'reasoning') return { text: '', reasoning: rest };
    // No closing tag ever came: what was held was the answer (any partial tag in it is just text).
    const out: Separated = { text: '', reasoning: '' };
    this.emit(out, rest);
    this.state = 'text';
    return out;
  }

  private emit(out: Separated, text: string): void {
    const visible = this.trimNext ? text.trimStart() : text;
    if (visible.length === 0) return;
    this.leading = false;
    this.trimNext = false;
    out.text += visible;
  }
}

function find(text: string, tags: readonly string[]): { at: number; tag: string } | undefined {
  const lower = text.toLowerCase();
  let best: { at: number; tag: string } | undefined;
  for (const tag of tags) {
    const at = lower.indexOf(tag);
    if (at !== -1 && (best === undefined || at < best.at)) best = { at, tag };
  }
  return best;
}

/** How long the end of `text` is that could still grow into one of `tags`. */
function partialTagLength(text: string, tags: readonly string[]): number {
  const lower = text.toLowerCase();
  const from = lower.lastIndexOf('<');
  if (from === -1) return 0;
  const tail = lower.slice(from);
  return tags.some((tag) => tag.length > tail.length && tag.startsWith(tail)) ? tail.length : 0;
}
