/**
 * Server-sent events parsing as the WHATWG spec describes it, fed with raw network chunks: a
 * chunk may end inside a line, inside a UTF-8 character or between the CR and LF of a line end.
 */

export interface SseEvent {
  /** `message` unless the server named it with an `event:` field. */
  event: string;
  /** The event's `data:` lines joined with `\n`. */
  data: string;
  id?: string;
}

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';
  private dropLeadingLf = false;
  private dataLines: string[] = [];
  private eventType = '';
  private lastId: string | undefined;

  push(chunk: Uint8Array): SseEvent[] {
    return this.feed(this.decoder.decode(chunk, { stream: true }));
  }

  /**
   * Flushes the end of the stream. Unlike the spec, an event not followed by a blank line is still
   * delivered: some servers close right after their last `data:` line.
   */
  end(): SseEvent[] {
    const events = this.feed(this.decoder.decode());
    if (this.buffer.length > 0) {
      this.processLine(this.buffer, events);
      this.buffer = '';
    }
    this.dispatch(events);
    return events;
  }

  private feed(text: string): SseEvent[] {
    const events: SseEvent[] = [];
    let start = 0;
    if (this.dropLeadingLf && text.length > 0) {
      if (text[0] === '\n') start = 1;
      this.dropLeadingLf = false;
    }
    this.buffer += start === 0 ? text : text.slice(start);
    let lineStart = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const char = this.buffer[i];
      if (char !== '\n' && char !== '\r') continue;
      this.processLine(this.buffer.slice(lineStart, i), events);
      if (char === '\r') {
        if (i + 1 === this.buffer.length) this.dropLeadingLf = true;
        else if (this.buffer[i + 1] === '\n') i++;
      }
      lineStart = i + 1;
    }
    this.buffer = this.buffer.slice(lineStart);
    return events;
  }

  private processLine(line: string, events: SseEvent[]): void {
    if (line === '') {
      this.dispatch(events);
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.dataLines.push(value);
    else if (field === 'event') this.eventType = value;
    else if (field === 'id' && !value.includes('\0')) this.lastId = value;
  }

  private dispatch(events: SseEvent[]): void {
    if (this.dataLines.length > 0) {
      const event: SseEvent = { event: this.eventType || 'message', data: this.dataLines.join('\n') };
      if (this.lastId !== undefined) event.id = this.lastId;
      events.push(event);
    }
    this.dataLines = [];
    this.eventType = '';
  }
}
