/**
 * Splits a streamed answer into chat text and artifacts. The model is asked to wrap a standalone
 * document in `<artifact filename="…" type="text/html|text/markdown">…</artifact>`; a tag may
 * arrive split across any number of deltas, so a tail that could begin a tag is held back.
 */

export type SplitEvent =
  | { kind: 'text'; text: string }
  | { kind: 'artifact_start'; filename: string; artifactType: string }
  | { kind: 'artifact_complete'; filename: string; artifactType: string; content: string };

const OPEN = '<artifact';
const CLOSE = '</artifact>';

/** The spec's rule: artifact_type text/html is an html file, anything else markdown. */
export const filetypeOf = (artifactType: string): 'html' | 'markdown' => (artifactType.toLowerCase().startsWith('text/html') ? 'html' : 'markdown');

function heldTail(text: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length--) {
    if (marker.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return match?.[1] ?? match?.[2];
}

export class ArtifactSplitter {
  private buffer = '';
  private artifact: { filename: string; artifactType: string; content: string } | null = null;
  private count = 0;

  push(text: string): SplitEvent[] {
    this.buffer += text;
    const events: SplitEvent[] = [];
    for (;;) {
      if (!this.artifact) {
        const start = this.buffer.indexOf(OPEN);
        if (start === -1) {
          const keep = heldTail(this.buffer, OPEN);
          this.emitText(events, this.buffer.slice(0, this.buffer.length - keep));
          this.buffer = this.buffer.slice(this.buffer.length - keep);
          return events;
        }
        const end = this.buffer.indexOf('>', start);
        this.emitText(events, this.buffer.slice(0, start));
        if (end === -1) {
          this.buffer = this.buffer.slice(start);
          return events;
        }
        const tag = this.buffer.slice(start, end + 1);
        const artifactType = attribute(tag, 'type') ?? 'text/markdown';
        const filename = attribute(tag, 'filename') ?? `artifact-${++this.count}.${filetypeOf(artifactType) === 'html' ? 'html' : 'md'}`;
        this.artifact = { filename, artifactType, content: '' };
        events.push({ kind: 'artifact_start', filename, artifactType });
        this.buffer = this.buffer.slice(end + 1).replace(/^\r?\n/, '');
      } else {
        const close = this.buffer.indexOf(CLOSE);
        if (close === -1) {
          const keep = heldTail(this.buffer, CLOSE);
          this.artifact.content += this.buffer.slice(0, this.buffer.length - keep);
          this.buffer = this.buffer.slice(this.buffer.length - keep);
          return events;
        }
        this.artifact.content += this.buffer.slice(0, close);
        events.push({ kind: 'artifact_complete', ...this.artifact, content: this.artifact.content.trim() });
        this.artifact = null;
        this.buffer = this.buffer.slice(close + CLOSE.length);
      }
    }
  }

  /** The answer ended: whatever is held back is released, and an unclosed artifact completes as it is. */
  end(): SplitEvent[] {
    const events: SplitEvent[] = [];
    if (this.artifact) {
      events.push({ kind: 'artifact_complete', ...this.artifact, content: (this.artifact.content + this.buffer).trim() });
      this.artifact = null;
    } else {
      this.emitText(events, this.buffer);
    }
    this.buffer = '';
    return events;
  }

  private emitText(events: SplitEvent[], text: string): void {
    if (text) events.push({ kind: 'text', text });
  }
}
