import { Buffer } from 'node:buffer';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';
import JSZip from 'jszip';

/**
 * Hand-written ZIP archives for hostile-upload tests: JSZip (and every archiver) writes honest sizes,
 * while an attacker's file may declare any size it likes and inflate to far more than its bytes.
 */
export interface RawEntry {
  name: string;
  /** The stored (deflated) bytes. */
  deflated: Buffer;
  crc: number;
  /** What the entry really inflates to. */
  size: number;
  /** What the headers claim it inflates to; the real size unless the test makes it lie. */
  declaredSize?: number;
}

export const entry = (name: string, content: string | Buffer, declaredSize?: number): RawEntry => {
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return { name, deflated: deflateRawSync(data), crc: crc32(data), size: data.length, ...(declaredSize !== undefined && { declaredSize }) };
};

/**
 * An entry of `prefix`, then `repeat` bytes of `fill`, then `suffix`, deflated as a stream so the test
 * never holds the inflated content (190 MB of blanks deflate to about 190 KB).
 */
export async function inflatingEntry(name: string, prefix: string, fill: number, repeat: number, suffix: string, declaredSize?: number): Promise<RawEntry> {
  // Level 1: runs of one byte deflate as well as at level 9 (the matches are the longest either way), far faster.
  const deflate = createDeflateRaw({ level: 1 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => deflate.once('end', resolve).once('error', reject));
  const head = Buffer.from(prefix, 'utf8');
  const tail = Buffer.from(suffix, 'utf8');
  let crc = crc32(head);
  const write = (chunk: Buffer) => new Promise<void>((resolve) => (deflate.write(chunk) ? resolve() : deflate.once('drain', resolve)));
  await write(head);
  const block = Buffer.alloc(1024 * 1024, fill);
  for (let left = repeat; left > 0; left -= block.length) {
    const piece = left >= block.length ? block : block.subarray(0, left);
    crc = crc32(piece, crc);
    await write(piece);
  }
  crc = crc32(tail, crc);
  deflate.end(tail);
  await done;
  return { name, deflated: Buffer.concat(chunks), crc, size: head.length + repeat + tail.length, ...(declaredSize !== undefined && { declaredSize }) };
}

/** A ZIP of these entries (deflate, no ZIP64), with each entry's declared size in both headers. */
export function writeZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const item of entries) {
    const name = Buffer.from(item.name, 'utf8');
    const declared = item.declaredSize ?? item.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(item.crc >>> 0, 14);
    local.writeUInt32LE(item.deflated.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(item.crc >>> 0, 16);
    central.writeUInt32LE(item.deflated.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, item.deflated);
    centrals.push(central, name);
    offset += local.length + name.length + item.deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Every entry of a real archive (one written by pptxgenjs or Word), to rebuild it with some parts replaced. */
export async function entriesOf(archive: Uint8Array): Promise<RawEntry[]> {
  const zip = await JSZip.loadAsync(archive);
  const files = Object.values(zip.files).filter((file) => !file.dir);
  return Promise.all(files.map(async (file) => entry(file.name, await file.async('nodebuffer'))));
}

/** The archive with the named parts replaced (or added) by these. */
export function replaceEntries(entries: RawEntry[], replacements: RawEntry[]): Buffer {
  const replaced = new Map(replacements.map((item) => [item.name, item]));
  const kept = entries.map((item) => replaced.get(item.name) ?? item);
  const added = replacements.filter((item) => !entries.some((each) => each.name === item.name));
  return writeZip([...kept, ...added]);
}
