import { XMLParser } from 'fast-xml-parser';
import { BoundedZip, declaresDoctype, InflateBoundExceeded } from '../extract/zip.ts';
import { DeckError, type Deck, type DeckSlide } from './port.ts';

/**
 * The slides of a .pptx already checked by checkDeckFile, read from its OOXML parts. Runs in the
 * document worker (infra/src/extract/documentWorker.ts), never in a server's own thread: a part is
 * inflated only when read and only up to these bounds, counted on the bytes really inflated.
 */
export const MAX_SLIDES = 200;
/** One part (a slide, its notes, a relationship list): a slide with a large table is well under 1 MB. */
export const MAX_PART_BYTES = 8 * 1024 * 1024;
/** Every part a review reads, together: 200 slides with notes at 300 KB each. */
export const MAX_READ_BYTES = 64 * 1024 * 1024;
/** What one slide's text or notes may carry into a review; a longer one is cut. */
export const MAX_SLIDE_CHARS = 4000;

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
function relationships(zip: BoundedZip, part: string): Map<string, { type: string; target: string }> {
  const folder = part.slice(0, part.lastIndexOf('/'));
  const relsPath = `${folder}/_rels/${part.slice(folder.length + 1)}.rels`;
  const xml = zip.text(relsPath);
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
  if (declaresDoctype(xml)) throw new DeckError('unreadable', 'deck.corrupt');
  try {
    return parser.parse(xml) as Node[];
  } catch {
    throw new DeckError('unreadable', 'deck.corrupt');
  }
}

const clip = (text: string) => (text.length > MAX_SLIDE_CHARS ? `${text.slice(0, MAX_SLIDE_CHARS - 1)}…` : text);

function readSlide(zip: BoundedZip, part: string, n: number): DeckSlide {
  const xml = zip.text(part);
  if (xml === undefined) throw new DeckError('unreadable', 'deck.corrupt');
  const tree = parse(xml);
  const rels = relationships(zip, part);
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
  const notes = notesPart ? readNotes(zip, notesPart) : '';
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

function readNotes(zip: BoundedZip, part: string): string {
  const xml = zip.text(part);
  if (!xml) return '';
  const texts: string[] = [];
  for (const shape of descendants(parse(xml), 'p:sp')) {
    if (placeholderType(shape) === 'body') texts.push(...paragraphsOf(children(shape)));
  }
  return texts.join('\n');
}

/**
 * The show order from ppt/presentation.xml and its relationships, each slide's title placeholder and
 * text, the speaker notes through the slide's notesSlide relationship, and the images its shapes embed.
 */
export function readSlides(bytes: Uint8Array): Deck {
  const zip = new BoundedZip(bytes, { entryBytes: MAX_PART_BYTES, totalBytes: MAX_READ_BYTES }, () => new DeckError('unreadable', 'deck.corrupt'));
  try {
    const presentation = zip.text('ppt/presentation.xml');
    if (presentation === undefined) throw new DeckError('unsupported_type', 'deck.not_presentation');
    const rels = relationships(zip, 'ppt/presentation.xml');
    const order = [...descendants(parse(presentation), 'p:sldId')]
      .map((slide) => rels.get(attrs(slide)['r:id'] ?? ''))
      .filter((rel): rel is { type: string; target: string } => rel !== undefined && rel.type.endsWith(REL_SLIDE))
      .map((rel) => rel.target);
    if (order.length === 0) throw new DeckError('empty', 'deck.no_slides');
    if (order.length > MAX_SLIDES) throw new DeckError('too_large', 'deck.too_many_slides', { max: MAX_SLIDES });
    return { slides: order.map((part, index) => readSlide(zip, part, index + 1)) };
  } catch (error) {
    if (error instanceof InflateBoundExceeded) {
      throw error.limit === 'entry'
        ? new DeckError('too_large', 'deck.part_too_large', { mb: MAX_PART_BYTES / 1024 / 1024 })
        : new DeckError('too_large', 'deck.unpacked_too_large', { mb: MAX_READ_BYTES / 1024 / 1024 });
    }
    throw error instanceof DeckError ? error : new DeckError('unreadable', 'deck.corrupt');
  }
}
