import { crc32, inflateRawSync } from 'node:zlib';
import { ExtractError } from './errors.ts';

export interface ZipEntry {
  name: string;
  compressedSize: number;
  /** What the archive claims; only a hint, since nothing checks it before inflating. */
  uncompressedSize: number;
  method: number;
  flags: number;
  crc: number;
  localOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const MAX_COMMENT = 0xffff;
const STORED = 0;
const DEFLATED = 8;

/**
 * Lists a ZIP's central directory without inflating anything, so a document can be checked for
 * what it claims to hold (and how big it claims to unpack) before a parser opens it.
 */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndOfCentralDirectory(view);
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder();
  for (let index = 0; index < count; index++) {
    if (offset + 46 > view.byteLength || view.getUint32(offset, true) !== CENTRAL_SIGNATURE) throw corruptArchive();
    const flags = view.getUint16(offset + 8, true);
    const method = view.getUint16(offset + 10, true);
    const crc = view.getUint32(offset + 16, true);
    const compressedSize = view.getUint32(offset + 20, true);
    const uncompressedSize = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const localOffset = view.getUint32(offset + 42, true);
    if (offset + 46 + nameLength > view.byteLength) throw corruptArchive();
    const name = decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    entries.push({ name, compressedSize, uncompressedSize, method, flags, crc, localOffset });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** How much a document's parts may really inflate to: each one, and all that are read together. */
export interface InflateBounds {
  entryBytes: number;
  totalBytes: number;
}

/** Raised when an archive inflates past its bounds; the caller turns it into its own coded refusal. */
export class InflateBoundExceeded extends Error {
  constructor(readonly limit: 'entry' | 'total', readonly bytes: number) {
    super(`an archive entry inflates past the ${limit} bound of ${bytes} bytes`);
    this.name = 'InflateBoundExceeded';
  }
}

/**
 * A ZIP whose entries are inflated on demand, counting the bytes really produced (never the sizes
 * the archive declares, which a hostile file sets to anything): an entry past `entryBytes`, or the
 * entries read so far past `totalBytes`, stop inflation at the bound with InflateBoundExceeded.
 * Damaged, encrypted or oddly compressed entries are refused with `corrupt()`.
 */
export class BoundedZip {
  private readonly entries: Map<string, ZipEntry>;
  private inflated = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly bounds: InflateBounds,
    private readonly corrupt: () => Error = corruptArchive,
  ) {
    let listed: ZipEntry[];
    try {
      listed = readZipDirectory(bytes);
    } catch {
      throw this.corrupt();
    }
    this.entries = new Map(listed.map((entry) => [entry.name, entry]));
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry's bytes, or undefined when the archive has no such entry. */
  read(name: string): Buffer | undefined {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    // Bit 0: encrypted. ZIP64 sizes (all ones) are never needed by a document under the upload limit.
    if (entry.flags & 1 || entry.compressedSize === 0xffffffff || entry.localOffset === 0xffffffff) throw this.corrupt();
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    const local = entry.localOffset;
    if (local + 30 > view.byteLength || view.getUint32(local, true) !== LOCAL_SIGNATURE) throw this.corrupt();
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + entry.compressedSize > view.byteLength) throw this.corrupt();
    const stored = this.bytes.subarray(start, start + entry.compressedSize);
    const room = Math.min(this.bounds.entryBytes, this.bounds.totalBytes - this.inflated);
    const limit: 'entry' | 'total' = room === this.bounds.entryBytes ? 'entry' : 'total';
    let data: Buffer;
    if (entry.method === STORED) {
      if (stored.byteLength > room) throw new InflateBoundExceeded(limit, limit === 'entry' ? this.bounds.entryBytes : this.bounds.totalBytes);
      data = Buffer.from(stored);
    } else if (entry.method === DEFLATED) {
      try {
        // zlib stops and throws as soon as its output passes maxOutputLength, so a bomb never unpacks further.
        data = inflateRawSync(stored, { maxOutputLength: Math.max(1, room) });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new InflateBoundExceeded(limit, limit === 'entry' ? this.bounds.entryBytes : this.bounds.totalBytes);
        throw this.corrupt();
      }
    } else {
      throw this.corrupt();
    }
    if (crc32(data) !== entry.crc) throw this.corrupt();
    this.inflated += data.byteLength;
    return data;
  }

  /** The entry as UTF-8 text. */
  text(name: string): string | undefined {
    return this.read(name)?.toString('utf8');
  }
}

function findEndOfCentralDirectory(view: DataView): number {
  const lowest = Math.max(0, view.byteLength - 22 - MAX_COMMENT);
  for (let offset = view.byteLength - 22; offset >= lowest; offset--) {
    if (view.getUint32(offset, true) === EOCD_SIGNATURE) return offset;
  }
  throw corruptArchive();
}

function corruptArchive() {
  return new ExtractError('unreadable', '文件已损坏，无法读取其中的内容', 'files.archive_corrupt');
}

/**
 * OOXML parts never carry a document type declaration (the packaging rules of ECMA-376 Part 2 forbid DTDs), so one
 * can only be an entity trick (billion laughs, external entities): the part is refused before any
 * XML parser sees it.
 */
export const declaresDoctype = (xml: string) => /<!DOCTYPE/i.test(xml);
