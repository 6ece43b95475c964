/**
 * The terminal's lines, handed out one at a time. Typed lines wait here until the chat loop takes
 * them, so a line typed (or piped) while the assistant is still answering is not lost; a question
 * that needs an answer now (run this command?) goes ahead of the chat loop and may give up its
 * turn when the answer comes from elsewhere.
 */
export class Lines {
  private readonly buffered: string[] = [];
  private readonly waiting: ((line: string | null) => void)[] = [];
  private closed = false;

  push(line: string): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter(line);
    else this.buffered.push(line);
  }

  /** No more lines: every waiter, and every later one, gets null. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter(null);
  }

  /** The next line (null once the terminal is closed); `first` goes ahead of those already waiting. */
  next(first = false): { line: Promise<string | null>; cancel: () => void } {
    const buffered = this.buffered.shift();
    if (buffered !== undefined) return { line: Promise.resolve(buffered), cancel: () => undefined };
    if (this.closed) return { line: Promise.resolve(null), cancel: () => undefined };
    let waiter!: (line: string | null) => void;
    const line = new Promise<string | null>((resolve) => (waiter = resolve));
    if (first) this.waiting.unshift(waiter);
    else this.waiting.push(waiter);
    return {
      line,
      cancel: () => {
        const at = this.waiting.indexOf(waiter);
        if (at !== -1) this.waiting.splice(at, 1);
      },
    };
  }
}
