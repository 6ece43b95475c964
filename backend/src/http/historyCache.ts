import type { EncodedJson } from './compression.ts';

/** What one process keeps of encoded history pages, at most. */
const MAX_BYTES = 32 * 1024 * 1024;
/** One page larger than this is not kept: a few whole histories would otherwise push out every page. */
const MAX_ENTRY_BYTES = MAX_BYTES / 16;

/**
 * History pages as they went over the wire (serialised and compressed), by session, page and
 * encoding, each with the version it was read at: the session's own position and its messages'
 * head (`message_heads`). A page is the same bytes for as long as both are, so an entry is never
 * stale: it is used only when the version read now is the one it was stored under, and replaced
 * otherwise. The caller asks only once the reader is authorised for the session (an entry holds no
 * owner). Least recently used entries go first past MAX_BYTES.
 */
export class HistoryPages {
  private readonly entries = new Map<string, { version: string; json: EncodedJson }>();
  private bytes = 0;

  constructor(private readonly maxBytes = MAX_BYTES) {}

  get(key: string, version: string): EncodedJson | undefined {
    const entry = this.entries.get(key);
    if (entry?.version !== version) return undefined;
    // Re-inserted: a Map iterates in insertion order, so the first entry is the least recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.json;
  }

  set(key: string, version: string, json: EncodedJson): void {
    this.drop(key);
    if (json.bytes.length > Math.min(MAX_ENTRY_BYTES, this.maxBytes)) return;
    this.entries.set(key, { version, json });
    this.bytes += json.bytes.length;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.json.bytes.length;
  }
}
