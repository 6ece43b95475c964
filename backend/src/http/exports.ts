import { existsSync } from 'node:fs';
import Router from '@koa/router';
import type { ParameterizedContext as Context } from 'koa';
import { Lexer, type Token, type Tokens } from 'marked';
import type { Services } from '../services.ts';
import { requireUser } from './authenticate.ts';
import { httpError } from './errors.ts';
import { safeFilename } from './files.ts';
import { parseBody } from './validate.ts';
import { contract } from './contract.ts';
import { markdownPdfBody } from '@scriptorium/domain/protocol/http/conversation';

export const MAX_MARKDOWN_BYTES = 1024 * 1024;

interface FontFace {
  path: string;
  /** The face inside a collection (.ttc), by PostScript name. */
  name?: string;
}

export interface PdfFonts {
  regular: FontFace;
  bold: FontFace;
  mono: FontFace;
}

const NOTO_DIR = '/usr/share/fonts/opentype/noto';

/**
 * The fonts a PDF export is set in; null when none with Chinese glyphs is on this machine.
 *
 * PDF_FONT_PATH: a TrueType/OpenType font or collection with CJK glyphs, used for all text;
 * PDF_FONT_NAME: the PostScript name of the face to use when that file is a collection (.ttc/.otc),
 * e.g. `NotoSansCJKsc-Regular`. Without PDF_FONT_PATH, the Noto Sans CJK collections from Debian's
 * `fonts-noto-cjk` package are used (regular, bold and the monospaced face for code).
 */
export function resolvePdfFonts(env: Record<string, string | undefined> = process.env): PdfFonts | null {
  if (env.PDF_FONT_PATH) {
    const collection = /\.(ttc|otc)$/i.test(env.PDF_FONT_PATH);
    if (!existsSync(env.PDF_FONT_PATH) || (collection && !env.PDF_FONT_NAME)) return null;
    const face = { path: env.PDF_FONT_PATH, ...(env.PDF_FONT_NAME && { name: env.PDF_FONT_NAME }) };
    return { regular: face, bold: face, mono: face };
  }
  const regular = `${NOTO_DIR}/NotoSansCJK-Regular.ttc`;
  const bold = `${NOTO_DIR}/NotoSansCJK-Bold.ttc`;
  if (!existsSync(regular)) return null;
  return {
    regular: { path: regular, name: 'NotoSansCJKsc-Regular' },
    bold: existsSync(bold) ? { path: bold, name: 'NotoSansCJKsc-Bold' } : { path: regular, name: 'NotoSansCJKsc-Regular' },
    mono: { path: regular, name: 'NotoSansMonoCJKsc-Regular' },
  };
}


/** Answers with `markdown` set as a PDF attachment named after `filename` (default `report`). */
export async function sendPdf(ctx: Context, markdown: string, filename?: string): Promise<void> {
  // Looked up per request, so installing a font needs no restart.
  const faces = resolvePdfFonts();
  if (!faces) throw httpError(503, 'exports.no_font');
  const name = `${safeFilename(filename?.trim() || 'report').replace(/\.(pdf|md|markdown|txt)$/i, '') || 'report'}.pdf`;
  const pdf = await markdownToPdf(markdown, { fonts: faces, title: name.replace(/\.pdf$/, '') });
  ctx.attachment(name);
  ctx.type = 'application/pdf';
  ctx.body = pdf;
}

export function exportRoutes(services: Services): Router {
  const router = new Router();

  router.post('/api/markdown-to-pdf', contract({ access: 'user', body: markdownPdfBody, responses: { 200: { type: 'application/pdf' } }, refusals: [413, 503] }), async (ctx) => {
    const body = parseBody(ctx, markdownPdfBody);
    await requireUser(services, ctx);
    if (Buffer.byteLength(body.markdown_content, 'utf8') > MAX_MARKDOWN_BYTES) throw httpError(413, 'exports.markdown_too_large', { mb: MAX_MARKDOWN_BYTES / 1024 / 1024 });
    await sendPdf(ctx, body.markdown_content, body.filename);
  });

  return router;
}

// ——— layout ———

const TEXT = '#222222';
const MUTED = '#666666';
const LINK = '#4a3aca';
const CODE_TEXT = '#333333';
const CODE_BG = '#f3f3f6';
const RULE = '#d0d0d8';
const TABLE_HEADER_BG = '#efeefb';
const BODY_SIZE = 11;
const HEADING_SIZES = [20, 16, 14, 12.5, 11.5, 11];
const LIST_INDENT = 18;
const QUOTE_INDENT = 14;
const LINE_GAP = 3;

interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  strike?: boolean;
  link?: string;
}

/** Renders Markdown (marked's lexer, GFM) into an A4 PDF with the given CJK fonts. */
export async function markdownToPdf(markdown: string, options: { fonts: PdfFonts; title: string }): Promise<Buffer> {
  // pdfkit and its font machinery are loaded by the first export, not by every process that serves HTTP.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margins: { top: 56, bottom: 56, left: 56, right: 56 }, bufferPages: true, info: { Title: options.title, Creator: 'Scriptorium' } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const { fonts } = options;
  doc.registerFont('regular', fonts.regular.path, fonts.regular.name);
  doc.registerFont('bold', fonts.bold.path, fonts.bold.name);
  doc.registerFont('mono', fonts.mono.path, fonts.mono.name);
  new MarkdownLayout(doc).render(new Lexer({ gfm: true }).lex(markdown));
  doc.end();
  return done;
}

class MarkdownLayout {
  private indent = 0;
  private color = TEXT;
  private readonly openQuotes: Array<{ x: number; page: number; top: number }> = [];
  private readonly bars: Array<{ x: number; page: number; top: number; bottom: number }> = [];

  constructor(private readonly doc: PDFKit.PDFDocument) {
    // A quote that runs onto a new page gets its bar drawn in pieces, one per page.
    doc.on('pageAdded', () => {
      for (const quote of this.openQuotes) {
        this.bars.push({ x: quote.x, page: quote.page, top: quote.top, bottom: this.bottom });
        quote.page = this.pageIndex();
        quote.top = doc.page.margins.top;
      }
    });
  }

  render(tokens: Token[]): void {
    this.doc.font('regular').fontSize(BODY_SIZE).fillColor(TEXT);
    this.blocks(tokens);
    this.finish();
  }

  private get left(): number {
    return this.doc.page.margins.left + this.indent;
  }

  private get width(): number {
    return this.doc.page.width - this.doc.page.margins.right - this.left;
  }

  private get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  private pageIndex(): number {
    const range = this.doc.bufferedPageRange();
    return range.start + range.count - 1;
  }

  private ensure(height: number): void {
    if (this.doc.y + height > this.bottom) this.doc.addPage();
  }

  private blocks(tokens: Token[]): void {
    for (const token of tokens) this.block(token);
  }

  private block(token: Token): void {
    switch (token.type) {
      case 'heading':
        return this.heading(token as Tokens.Heading);
      case 'paragraph':
        return this.paragraph(inlineRuns((token as Tokens.Paragraph).tokens), { gap: 7 });
      case 'text': {
        // A tight list item's text: inline tokens when marked parsed them, the plain text otherwise.
        const text = token as Tokens.Text;
        return this.paragraph(text.tokens ? inlineRuns(text.tokens) : [{ text: decodeEntities(text.text) }], { gap: 3 });
      }
      case 'list':
        return this.list(token as Tokens.List, 0);
      case 'code':
        return this.code((token as Tokens.Code).text);
      case 'blockquote':
        return this.blockquote((token as Tokens.Blockquote).tokens);
      case 'table':
        return this.table(token as Tokens.Table);
      case 'hr':
        return this.rule();
      case 'html': {
        const text = decodeEntities(stripTags((token as Tokens.HTML).text)).trim();
        if (text) this.paragraph([{ text }], { gap: 7 });
        return;
      }
      default:
        // space, def and checkbox tokens lay out nothing of their own.
        return;
    }
  }

  private heading(token: Tokens.Heading): void {
    const size = HEADING_SIZES[token.depth - 1] ?? BODY_SIZE;
    // Keep a heading with at least two lines of what follows it.
    this.ensure(size * 1.6 + BODY_SIZE * 3.5);
    if (this.doc.y > this.doc.page.margins.top) this.doc.y += token.depth <= 2 ? 10 : 6;
    this.paragraph(inlineRuns(token.tokens, { bold: true }), { size, gap: token.depth <= 2 ? 3 : 5 });
    if (token.depth <= 2) {
      this.doc.moveTo(this.left, this.doc.y).lineTo(this.left + this.width, this.doc.y).lineWidth(0.6).strokeColor(RULE).stroke();
      this.doc.y += 8;
    }
  }

  private paragraph(runs: Run[], options: { size?: number; gap: number }): void {
    const size = options.size ?? BODY_SIZE;
    this.ensure(size * 1.4);
    this.writeRuns(runs, { x: this.left, y: this.doc.y, width: this.width, size, color: this.color });
    this.doc.y += options.gap;
  }

  /** One paragraph of differently styled runs, wrapped as one block (pdfkit's `continued`). */
  private writeRuns(runs: Run[], at: { x: number; y: number; width: number; size: number; color: string; align?: 'left' | 'center' | 'right' }): void {
    const visible = runs.filter((run) => run.text.length > 0);
    if (visible.length === 0) return;
    const doc = this.doc;
    visible.forEach((run, index) => {
      doc
        .font(run.code ? 'mono' : run.bold ? 'bold' : 'regular')
        .fontSize(run.code ? at.size * 0.92 : at.size)
        .fillColor(run.link ? LINK : run.code ? CODE_TEXT : at.color);
      const style: PDFKit.Mixins.TextOptions = {
        width: at.width,
        align: at.align ?? 'left',
        lineGap: LINE_GAP,
        continued: index < visible.length - 1,
        // Every style is set on every run: pdfkit carries options over between continued runs.
        underline: Boolean(run.link),
        strike: Boolean(run.strike),
        oblique: run.italic ? 12 : false,
        link: run.link ?? null,
      };
      if (index === 0) doc.text(run.text, at.x, at.y, style);
      else doc.text(run.text, style);
    });
    doc.x = this.doc.page.margins.left;
  }

  private list(token: Tokens.List, depth: number): void {
    const doc = this.doc;
    const start = typeof token.start === 'number' ? token.start : 1;
    token.items.forEach((item, index) => {
      this.ensure(BODY_SIZE * 1.4);
      const y = doc.y;
      if (token.ordered && !item.task) {
        doc.font('regular').fontSize(BODY_SIZE).fillColor(this.color).text(`${start + index}.`, this.left, y, { width: LIST_INDENT - 4, align: 'right', lineBreak: false });
        doc.y = y;
      } else {
        this.marker(item, depth, y);
      }
      this.indent += LIST_INDENT + 2;
      for (const child of item.tokens) {
        if (child.type === 'list') this.list(child as Tokens.List, depth + 1);
        else this.block(child);
      }
      this.indent -= LIST_INDENT + 2;
    });
    doc.y += 4;
  }

  /**
   * Bullets and task boxes are drawn rather than typed: CJK fonts have no ballot-box glyphs and
   * only a tiny bullet, and drawing looks the same whichever font is configured.
   */
  private marker(item: Tokens.ListItem, depth: number, y: number): void {
    const doc = this.doc;
    const middle = y + BODY_SIZE * 0.62;
    const right = this.left + LIST_INDENT - 4;
    if (item.task) {
      const side = BODY_SIZE * 0.78;
      doc.lineWidth(0.8).strokeColor(this.color).rect(right - side, middle - side / 2, side, side).stroke();
      if (item.checked) {
        doc
          .moveTo(right - side * 0.8, middle)
          .lineTo(right - side * 0.55, middle + side * 0.28)
          .lineTo(right - side * 0.15, middle - side * 0.3)
          .lineWidth(1.2)
          .stroke();
      }
      return;
    }
    const radius = 1.9;
    const x = right - radius;
    if (depth % 3 === 0) doc.circle(x, middle, radius).fill(this.color);
    else if (depth % 3 === 1) doc.circle(x, middle, radius).lineWidth(0.7).strokeColor(this.color).stroke();
    else doc.rect(x - radius, middle - radius, radius * 2, radius * 2).fill(this.color);
  }

  private code(text: string): void {
    const doc = this.doc;
    const pad = 6;
    const size = 9.5;
    const lines = text.replace(/\t/g, '    ').split('\n');
    doc.font('mono').fontSize(size);
    lines.forEach((line, index) => {
      const content = line.length > 0 ? line : ' ';
      const inner = this.width - pad * 2;
      const height = doc.heightOfString(content, { width: inner, lineGap: 2 });
      const top = index === 0 ? pad : 0;
      const below = index === lines.length - 1 ? pad : 0;
      this.ensure(top + height + below);
      doc.rect(this.left, doc.y, this.width, top + height + below).fill(CODE_BG);
      doc.font('mono').fontSize(size).fillColor(CODE_TEXT).text(content, this.left + pad, doc.y + top, { width: inner, lineGap: 2 });
      doc.y += below;
    });
    doc.x = doc.page.margins.left;
    doc.y += 8;
  }

  private blockquote(tokens: Token[]): void {
    const quote = { x: this.left + 2, page: this.pageIndex(), top: this.doc.y };
    this.openQuotes.push(quote);
    const color = this.color;
    this.indent += QUOTE_INDENT;
    this.color = MUTED;
    this.blocks(tokens);
    this.color = color;
    this.indent -= QUOTE_INDENT;
    this.openQuotes.pop();
    this.bars.push({ x: quote.x, page: quote.page, top: quote.top, bottom: this.doc.y - 4 });
    this.doc.y += 4;
  }

  private table(token: Tokens.Table): void {
    const doc = this.doc;
    const size = 9.5;
    const pad = 4;
    const columns = token.header.length;
    // Columns share the width by how much they hold, within bounds, so short ones stay narrow.
    const weights = token.header.map((cell, column) => {
      const longest = Math.max(displayLength(cell.text), ...token.rows.map((row) => displayLength(row[column]?.text ?? '')));
      return Math.min(40, Math.max(4, longest));
    });
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    const widths = weights.map((weight) => (this.width * weight) / total);
    const row = (cells: Tokens.TableCell[], header: boolean): void => {
      const runs = Array.from({ length: columns }, (_, column) => inlineRuns(cells[column]?.tokens ?? [], header ? { bold: true } : {}));
      const heights = runs.map((cellRuns, column) => {
        doc.font(header ? 'bold' : 'regular').fontSize(size);
        const text = cellRuns.map((run) => run.text).join('');
        return text ? doc.heightOfString(text, { width: widths[column]! - pad * 2, lineGap: LINE_GAP }) : size;
      });
      const height = Math.max(...heights) + pad * 2;
      if (doc.y + height > this.bottom) {
        doc.addPage();
        if (!header) row(token.header, true);
      }
      const top = doc.y;
      let x = this.left;
      runs.forEach((cellRuns, column) => {
        const width = widths[column]!;
        if (header) doc.rect(x, top, width, height).fill(TABLE_HEADER_BG);
        doc.rect(x, top, width, height).lineWidth(0.5).strokeColor(RULE).stroke();
        const align = token.align[column] ?? 'left';
        this.writeRuns(cellRuns, { x: x + pad, y: top + pad, width: width - pad * 2, size, color: this.color, align });
        x += width;
      });
      doc.y = top + height;
    };
    this.ensure(size * 4);
    row(token.header, true);
    for (const cells of token.rows) row(cells, false);
    doc.x = doc.page.margins.left;
    doc.y += 8;
  }

  private rule(): void {
    this.ensure(16);
    this.doc.y += 4;
    this.doc.moveTo(this.left, this.doc.y).lineTo(this.left + this.width, this.doc.y).lineWidth(0.8).strokeColor(RULE).stroke();
    this.doc.y += 10;
  }

  /** Quote bars and page numbers, drawn once every page exists. */
  private finish(): void {
    const doc = this.doc;
    const range = doc.bufferedPageRange();
    for (let page = range.start; page < range.start + range.count; page++) {
      doc.switchToPage(page);
      for (const bar of this.bars.filter((candidate) => candidate.page === page && candidate.bottom > candidate.top)) {
        doc.rect(bar.x, bar.top, 2.5, bar.bottom - bar.top).fill(RULE);
      }
      // Writing inside the bottom margin would otherwise make pdfkit start a new page.
      const margin = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc
        .font('regular')
        .fontSize(8)
        .fillColor(MUTED)
        .text(`${page + 1} / ${range.count}`, doc.page.margins.left, doc.page.height - 34, { width: doc.page.width - doc.page.margins.left - doc.page.margins.right, align: 'center', lineBreak: false });
      doc.page.margins.bottom = margin;
    }
  }
}

const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/;

/** Marked's inline tokens as styled runs; a soft line break is a space, or nothing between Chinese characters. */
function inlineRuns(tokens: Token[], style: Omit<Run, 'text'> = {}): Run[] {
  const runs: Run[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
      case 'escape': {
        const text = token as Tokens.Text;
        if (text.tokens && text.tokens.length > 0) runs.push(...inlineRuns(text.tokens, style));
        else runs.push({ ...style, text: softBreaks(decodeEntities(text.text)) });
        break;
      }
      case 'strong':
        runs.push(...inlineRuns((token as Tokens.Strong).tokens, { ...style, bold: true }));
        break;
      case 'em':
        runs.push(...inlineRuns((token as Tokens.Em).tokens, { ...style, italic: true }));
        break;
      case 'del':
        runs.push(...inlineRuns((token as Tokens.Del).tokens, { ...style, strike: true }));
        break;
      case 'codespan':
        runs.push({ ...style, code: true, text: decodeEntities((token as Tokens.Codespan).text) });
        break;
      case 'link': {
        const link = token as Tokens.Link;
        const href = safeHref(link.href);
        runs.push(...inlineRuns(link.tokens, { ...style, ...(href && { link: href }) }));
        break;
      }
      case 'image': {
        // Images are not fetched (exports stay offline); their description and address stand in.
        const image = token as Tokens.Image;
        const href = safeHref(image.href);
        runs.push({ ...style, text: `[图片：${image.text || image.href}]`, ...(href && { link: href }) });
        break;
      }
      case 'br':
        runs.push({ ...style, text: '\n' });
        break;
      case 'html': {
        const html = (token as Tokens.Tag).text;
        if (/^<br\s*\/?>$/i.test(html)) runs.push({ ...style, text: '\n' });
        break;
      }
      default:
        if ('text' in token && typeof token.text === 'string') runs.push({ ...style, text: decodeEntities(token.text) });
    }
  }
  return runs;
}

function softBreaks(text: string): string {
  return text.replace(/\n/g, (_match, offset: number) => (CJK.test(text[offset - 1] ?? '') && CJK.test(text[offset + 1] ?? '') ? '' : ' '));
}

/** Only web and mail addresses become clickable; anything else (javascript:, file:) stays plain text. */
function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', hellip: '…', mdash: '—', ndash: '–' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (match, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return ENTITIES[name.toLowerCase()] ?? match;
  });
}

const stripTags = (html: string) => html.replace(/<[^>]*>/g, '');

/** Width in half-width units: a Chinese character counts twice. */
const displayLength = (text: string) => [...text].reduce((sum, char) => sum + (CJK.test(char) ? 2 : 1), 0);
