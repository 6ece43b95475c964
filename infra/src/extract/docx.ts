import { ExtractError } from './errors.ts';
import { readZipDirectory } from './zip.ts';

/** A DOCX that claims to unpack to more than this is refused before anything is inflated. */
const MAX_UNPACKED_BYTES = 200 * 1024 * 1024;

export function isDocx(bytes: Uint8Array): boolean {
  try {
    const names = new Set(readZipDirectory(bytes).map((entry) => entry.name));
    return names.has('[Content_Types].xml') && names.has('word/document.xml');
  } catch {
    return false;
  }
}

export async function docxText(bytes: Uint8Array): Promise<{ text: string }> {
  const unpacked = readZipDirectory(bytes).reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (unpacked > MAX_UNPACKED_BYTES) throw new ExtractError('unreadable', 'DOCX 解压后过大，无法处理', 'files.docx_too_large');
  // mammoth is loaded by the first DOCX, not by every process that may receive one.
  const { default: mammoth } = await import('mammoth');
  try {
    const result = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    return { text: result.value };
  } catch {
    throw new ExtractError('unreadable', 'DOCX 文件已损坏，无法读取', 'files.docx_corrupt');
  }
}
