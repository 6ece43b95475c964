import type JSZip from 'jszip';
import { XMLParser } from 'fast-xml-parser';
import { readZipDirectory } from '../extract/zip.ts';
import { DeckError, type Deck, type DeckReader, type DeckSlide } from './port.ts';

export const MAX_DECK_BYTES = 20 * 1024 * 1024;
/** A package that claims to unpack to more than this is refused before anything is inflated. */
export const MAX_UNPACKED_BYTES = 200 * 1024 * 1024;
export const MAX_SLIDES = 200;
/** What one slide's text or notes may carry into a review; a longer one is cut. */
export const MAX_SLIDE_CHARS = 4000;

export const PPTX_MIME = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
/** What browsers and tools send for a .pptx besides its own type. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'application/zip', 'application/x-zip-compressed', 'binary/octet-stream']);
/** OLE compound files: the old binary .ppt, and every password-protected OOXML file. */
const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

const REL_SLIDE = '/relationships/slide';
const REL_NOTES = '/relationships/notesSlide';
const REL_IMAGE = '/relationships/image';
const TITLE_TYPES = new Set(['title', 'ctrTitle']);
/** Placeholders the layout fills in (date, footer, slide number): not what the author wrote on the slide. */
const CHROME_TYPES = new Set(['dt', 'ftr', 'sldNum', 'hdr', 'sldImg']);

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  preserveOrder: true,
  // Slide text such as "2024" or "007" must stay the characters the author typed.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
});

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

/** The children of a preserve-order node, whatever its tag. */
function children(node: Node): Node[] {
  for (const [key, value] of Object.entries(node)) if (key !== ':@' && Array.isArray(value)) return value as Node[];
  return [];
}
const tagOf = (node: Node) => Object.keys(node).find((key) => key !== ':@');
const attrs = (node: Node) => (node[':@'] ?? {}) as Record<string, string>;

function* descendants(nodes: Node[], tag: string): Generator<Node> {
  for (const node of nodes) {
    if (tagOf(node) === tag) yield node;
    else yield* descendants(children(node), tag);
  }
}

const first = (nodes: Node[], tag: string): Node | undefined => descendants(nodes, tag).next().value;

/** A paragraph's text: runs, fields and line breaks, as the reader sees them. */
function paragraphText(paragraph: Node): string {
  let text = '';
  const walk = (nodes: Node[]) => {
    for (const node of nodes) {
      const tag = tagOf(node);
      if (tag === 'a:t') text += children(node).map((leaf) => String(leaf['#text'] ?? '')).join('');
      else if (tag === 'a:br') text += '\n';
      else if (tag !== 'a:pPr' && tag !== 'a:rPr' && tag !== 'a:endParaRPr') walk(children(node));
    }
  };
  walk(children(paragraph));
  return text.replace(/[ \t\u00a0]+/g, ' ').trim();
}

const paragraphsOf = (nodes: Node[]) => [...descendants(nodes, 'a:p')].map(paragraphText).filter(Boolean);

function placeholderType(shape: Node): string | null {
  const placeholder = first(children(shape), 'p:ph');
  if (!placeholder) return null;
  // A placeholder without a type is a body (ECMA-376 §19.3.1.36).
  return attrs(placeholder).type ?? 'body';
}

/** Relationship id → {type, target resolved against the part's folder}. */
async function relationships(zip: JSZip, part: string): Promise<Map<string, { type: string; target: string }>> {
  const folder = part.slice(0, part.lastIndexOf('/'));
  const relsPath = `${folder}/_rels/${part.slice(folder.length + 1)}.rels`;
  const xml = await zip.file(relsPath)?.async('string');
  const map = new Map<string, { type: string; target: string }>();
  if (!xml) return map;
  for (const rel of descendants(parse(xml), 'Relationship')) {
    const { Id, Type, Target, TargetMode } = attrs(rel);
    if (!Id || !Type || !Target || TargetMode === 'External') continue;
    map.set(Id, { type: Type, target: resolve(folder, Target) });
  }
  return map;
}

function resolve(folder: string, target: string): string {
  const parts = target.startsWith('/') ? [] : folder.split('/').filter(Boolean);
  for (const piece of target.replace(/^\//, '').split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.' && piece) parts.push(piece);
  }
  return parts.join('/');
}

function parse(xml: string): Node[] {
  try {
    return parser.parse(xml) as Node[];
  } catch {
    throw new DeckError('unreadable', 'deck.corrupt');
  }
}

const clip = (text: string) => (text.length > MAX_SLIDE_CHARS ? `${text.slice(0, MAX_SLIDE_CHARS - 1)}…` : text);

async function readSlide(zip: JSZip, part: string, n: number): Promise<DeckSlide> {
  const xml = await zip.file(part)?.async('string');
  if (xml === undefined) throw new DeckError('unreadable', 'deck.corrupt');
  const tree = parse(xml);
  const rels = await relationships(zip, part);
  let title: string | null = null;
  const paragraphs: string[] = [];
  for (const shape of descendants(tree, 'p:sp')) {
    const type = placeholderType(shape);
    if (type && CHROME_TYPES.has(type)) continue;
    const texts = paragraphsOf(children(shape));
    if (type && TITLE_TYPES.has(type) && title === null && texts.length > 0) title = texts.join(' ');
    else paragraphs.push(...texts);
  }
  // Tables sit in graphic frames, not shapes.
  for (const frame of descendants(tree, 'p:graphicFrame')) paragraphs.push(...paragraphsOf(children(frame)));
  const images = new Set<string>();
  for (const blip of descendants(tree, 'a:blip')) {
    const id = attrs(blip)['r:embed'];
    const rel = id ? rels.get(id) : undefined;
    if (rel?.type.endsWith(REL_IMAGE)) images.add(id!);
  }
  const notesPart = [...rels.values()].find((rel) => rel.type.endsWith(REL_NOTES))?.target;
  const notes = notesPart ? await readNotes(zip, notesPart) : '';
  return { n, title: title && clip(title), paragraphs: clipAll(paragraphs), notes: clip(notes), images: images.size };
}

function clipAll(paragraphs: string[]): string[] {
  const kept: string[] = [];
  let length = 0;
  for (const paragraph of paragraphs) {
    if (length + paragraph.length > MAX_SLIDE_CHARS) {
      kept.push(clip(paragraph.slice(0, Math.max(0, MAX_SLIDE_CHARS - length - 1)) + '…'));
      break;
    }
    kept.push(paragraph);
    length += paragraph.length;
  }
  return kept;
}

async function readNotes(zip: JSZip, part: string): Promise<string> {
  const xml = await zip.file(part)?.async('string');
  if (!xml) return '';
  const texts: string[] = [];
  for (const shape of descendants(parse(xml), 'p:sp')) {
    if (placeholderType(shape) === 'body') texts.push(...paragraphsOf(children(shape)));
  }
  return texts.join('\n');
}

/**
 * Reads a .pptx with JSZip and fast-xml-parser over its OOXML parts: the show order from
 * ppt/presentation.xml and its relationships, each slide's title placeholder and text, the speaker
 * notes through the slide's notesSlide relationship, and the images its shapes embed.
 */
export class OoxmlDeckReader implements DeckReader {
  async read(bytes: Uint8Array, file: { filename: string; mimeType?: string }): Promise<Deck> {
    checkDeckFile(bytes, file);
    // JSZip is loaded by the first deck, not by every process that may receive one.
    const { default: zipReader } = await import('jszip');
    let zip: JSZip;
    try {
      zip = await zipReader.loadAsync(bytes, { checkCRC32: true });
    } catch {
      throw new DeckError('unreadable', 'deck.corrupt');
    }
    try {
      const presentation = await zip.file('ppt/presentation.xml')!.async('string');
      const rels = await relationships(zip, 'ppt/presentation.xml');
      const order = [...descendants(parse(presentation), 'p:sldId')]
        .map((slide) => rels.get(attrs(slide)['r:id'] ?? ''))
        .filter((rel): rel is { type: string; target: string } => rel !== undefined && rel.type.endsWith(REL_SLIDE))
        .map((rel) => rel.target);
      if (order.length === 0) throw new DeckError('empty', 'deck.no_slides');
      if (order.length > MAX_SLIDES) throw new DeckError('too_large', 'deck.too_many_slides', { max: MAX_SLIDES });
      const slides: DeckSlide[] = [];
      for (const [index, part] of order.entries()) slides.push(await readSlide(zip, part, index + 1));
      return { slides };
    } catch (error) {
      // JSZip reports a bad entry (CRC, truncated stream) only when that entry is inflated.
      throw error instanceof DeckError ? error : new DeckError('unreadable', 'deck.corrupt');
    }
  }
}
