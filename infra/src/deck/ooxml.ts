import { readZipDirectory } from '../extract/zip.ts';
import { DocumentSandbox } from '../documents/sandbox.ts';
import { DeckError, type Deck, type DeckReader } from './port.ts';

export const MAX_DECK_BYTES = 20 * 1024 * 1024;
/** A package that claims to unpack to more than this is refused before anything is inflated. */
export const MAX_UNPACKED_BYTES = 200 * 1024 * 1024;

export const PPTX_MIME = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
/** What browsers and tools send for a .pptx besides its own type. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'application/zip', 'application/x-zip-compressed', 'binary/octet-stream']);
/** OLE compound files: the old binary .ppt, and every password-protected OOXML file. */
const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((byte, index) => bytes[index] === byte);

/** Checks everything that can be known without inflating: size, name, type, container, claimed size. */
export function checkDeckFile(bytes: Uint8Array, file: { filename: string; mimeType?: string }): void {
  if (bytes.byteLength > MAX_DECK_BYTES) throw new DeckError('too_large', 'deck.too_large', { mb: MAX_DECK_BYTES / 1024 / 1024 });
  if (bytes.byteLength === 0) throw new DeckError('empty', 'deck.empty');
  const name = file.filename.replace(/\\/g, '/').split('/').pop() ?? '';
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  if (extension === 'ppt') throw new DeckError('unsupported_type', 'deck.legacy_ppt');
  if (extension !== 'pptx') throw new DeckError('unsupported_type', 'deck.extension_unsupported', { extension: extension || '—' });
  const mime = (file.mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mime !== PPTX_MIME && !GENERIC_TYPES.has(mime)) throw new DeckError('unsupported_type', 'deck.type_mismatch', { type: mime });
  if (startsWith(bytes, CFB_SIGNATURE)) throw new DeckError('unreadable', 'deck.encrypted');
  if (!startsWith(bytes, ZIP_SIGNATURE)) throw new DeckError('unreadable', 'deck.not_zip');
  let entries;
  try {
    entries = readZipDirectory(bytes);
  } catch {
    throw new DeckError('unreadable', 'deck.corrupt');
  }
  const names = new Set(entries.map((entry) => entry.name));
  if (!names.has('[Content_Types].xml') || !names.has('ppt/presentation.xml')) throw new DeckError('unsupported_type', 'deck.not_presentation');
  const unpacked = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (unpacked > MAX_UNPACKED_BYTES) throw new DeckError('too_large', 'deck.unpacked_too_large', { mb: MAX_UNPACKED_BYTES / 1024 / 1024 });
}

/**
 * Reads a .pptx: what can be checked without inflating is checked here, then the slides are read
 * (deck/slides.ts, fast-xml-parser over the OOXML parts) in a document worker, so a hostile deck
 * fails its own upload with a coded refusal and never takes the server's memory or time.
 */
export class OoxmlDeckReader implements DeckReader {
  constructor(private readonly sandbox: DocumentSandbox = DocumentSandbox.shared()) {}

  async read(bytes: Uint8Array, file: { filename: string; mimeType?: string }): Promise<Deck> {
    checkDeckFile(bytes, file);
    return (await this.sandbox.run({ task: 'deck', bytes })) as Deck;
  }
}
