import { ExtractError } from './errors.ts';
import { BoundedZip, declaresDoctype, InflateBoundExceeded, readZipDirectory } from './zip.ts';

/** A DOCX that claims to unpack to more than this is refused before anything is inflated. */
const MAX_UNPACKED_BYTES = 200 * 1024 * 1024;
/**
 * What a DOCX may really inflate to, counted while inflating: one part (the document part of a
 * 2-million-character report is about 40 MB of XML), and all parts with their images.
 */
export const MAX_DOCX_PART_BYTES = 64 * 1024 * 1024;
export const MAX_DOCX_BYTES = 160 * 1024 * 1024;

const tooLarge = () => new ExtractError('unreadable', 'DOCX 解压后过大，无法处理', 'files.docx_too_large');
const corrupt = () => new ExtractError('unreadable', 'DOCX 文件已损坏，无法读取', 'files.docx_corrupt');

export function isDocx(bytes: Uint8Array): boolean {
  try {
    const names = new Set(readZipDirectory(bytes).map((entry) => entry.name));
    return names.has('[Content_Types].xml') && names.has('word/document.xml');
  } catch {
    return false;
  }
}

/**
 * Every part is inflated once under the bounds before mammoth (whose JSZip trusts the archive) opens
 * the file, so mammoth only ever inflates what has been shown to fit; an XML part with a DTD is an
 * entity trick and refused.
 */
function checkParts(bytes: Uint8Array): void {
  const unpacked = readZipDirectory(bytes).reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (unpacked > MAX_UNPACKED_BYTES) throw tooLarge();
  const zip = new BoundedZip(bytes, { entryBytes: MAX_DOCX_PART_BYTES, totalBytes: MAX_DOCX_BYTES }, corrupt);
  try {
    for (const name of zip.names()) {
      const data = zip.read(name)!;
      if (/\.(xml|rels)$/i.test(name) && declaresDoctype(data.toString('utf8'))) throw corrupt();
    }
  } catch (error) {
    throw error instanceof InflateBoundExceeded ? tooLarge() : error;
  }
}

export async function docxText(bytes: Uint8Array): Promise<{ text: string }> {
  checkParts(bytes);
  // mammoth is loaded by the first DOCX, not by every process that may receive one.
  const { default: mammoth } = await import('mammoth');
  try {
    const result = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    return { text: result.value };
  } catch {
    throw corrupt();
  }
}
