import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ExtractError } from './errors.ts';

const PDFJS_ROOT = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

export interface PdfText {
  text: string;
  title?: string;
  pages: number;
}

/**
 * Text of each page in order, stopping once `maxChars` is reached. The predefined CMaps shipped with
 * pdf.js are loaded from disk because Chinese PDFs often use non-embedded Adobe-GB1 fonts, whose text
 * cannot be mapped to Unicode without them.
 */
export async function pdfText(bytes: Uint8Array, maxChars: number): Promise<PdfText> {
  // pdf.js is loaded by the first PDF, not by every process that may receive one.
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({
    // pdf.js takes ownership of (and detaches) the buffer it is given, so it gets a copy.
    data: new Uint8Array(bytes),
    cMapUrl: join(PDFJS_ROOT, 'cmaps') + '/',
    cMapPacked: true,
    standardFontDataUrl: join(PDFJS_ROOT, 'standard_fonts') + '/',
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  });
  let pdf: PDFDocumentProxy;
  try {
    pdf = await task.promise;
  } catch (error) {
    await task.destroy();
    // pdf.js does not export its PasswordException class, only errors carrying its name.
    if ((error as Error | undefined)?.name === 'PasswordException') throw new ExtractError('encrypted', 'PDF 已加密，请先移除密码再上传', 'files.pdf_encrypted');
    throw new ExtractError('unreadable', 'PDF 文件已损坏，无法读取', 'files.pdf_corrupt');
  }
  try {
    const pages: string[] = [];
    let total = 0;
    for (let number = 1; number <= pdf.numPages && total <= maxChars; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      page.cleanup();
      pages.push(text.trim());
      total += text.length;
    }
    const info = (await pdf.getMetadata().catch(() => null))?.info as { Title?: unknown } | undefined;
    const title = typeof info?.Title === 'string' && info.Title.trim() ? info.Title.trim() : undefined;
    return { text: pages.join('\n\n'), pages: pdf.numPages, ...(title !== undefined && { title }) };
  } finally {
    await pdf.destroy();
  }
}
