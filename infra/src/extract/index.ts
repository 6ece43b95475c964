import { fileTypeFromBuffer } from 'file-type';
import { DocumentSandbox } from '../documents/sandbox.ts';
import { decodeText, normalizeText } from './decode.ts';
import { isDocx } from './docx.ts';
import { ExtractError } from './errors.ts';

export { ExtractError, type ExtractReason } from './errors.ts';

export const MAX_INPUT_BYTES = 20 * 1024 * 1024;
export const MAX_TEXT_CHARS = 2_000_000;
export const TRUNCATION_MARKER = `\n\n[内容过长，已截断：仅保留前 ${MAX_TEXT_CHARS} 个字符]`;

export const FILE_KINDS = ['txt', 'md', 'pdf', 'docx', 'html'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export const CONTENT_TYPES: Record<FileKind, string> = {
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  html: 'text/html; charset=utf-8',
};

export interface Extracted {
  kind: FileKind;
  text: string;
  title?: string;
  pages?: number;
  /** The text was cut at MAX_TEXT_CHARS and ends with TRUNCATION_MARKER. */
  truncated: boolean;
}

const EXTENSIONS: Record<string, FileKind> = { txt: 'txt', text: 'txt', md: 'md', markdown: 'md', pdf: 'pdf', docx: 'docx', html: 'html', htm: 'html' };
const MIME_TYPES: Record<string, FileKind> = {
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/x-markdown': 'md',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/html': 'html',
};
const SUPPORTED = '支持的格式：TXT、Markdown、PDF、DOCX、HTML';

/** The kind a name or MIME type stands for, if it is one we read (`report.PDF`, `pdf`, `application/pdf`). */
export function kindOf(nameOrType: string): FileKind | undefined {
  const value = nameOrType.trim().toLowerCase();
  const mime = MIME_TYPES[value.split(';')[0]!.trim()];
  if (mime) return mime;
  const extension = value.includes('.') ? value.slice(value.lastIndexOf('.') + 1) : value;
  return EXTENSIONS[extension];
}

/**
 * The text of an uploaded document. The kind comes from the extension (or the MIME type when the
 * name has none) and must agree with what the bytes are: a PDF must start like a PDF, a DOCX must be
 * a Word package, and text kinds must decode as text. Anything else is refused with an ExtractError.
 */
export async function extractText(bytes: Uint8Array, file: { filename: string; mimeType?: string }, sandbox: DocumentSandbox = DocumentSandbox.shared()): Promise<Extracted> {
  if (bytes.byteLength > MAX_INPUT_BYTES) throw new ExtractError('too_large', `文件大小不能超过 ${MAX_INPUT_BYTES / 1024 / 1024} MB`, 'files.too_large', { mb: MAX_INPUT_BYTES / 1024 / 1024 });
  if (bytes.byteLength === 0) throw new ExtractError('empty', '文件是空的', 'files.empty');
  const kind = await decideKind(bytes, file);
  const extracted = await read(kind, bytes, sandbox);
  const text = normalizeText(extracted.text);
  if (!text) {
    throw kind === 'pdf'
      ? new ExtractError('empty', '未能从 PDF 中提取到文字（扫描版 PDF 需先做文字识别）', 'files.pdf_no_text')
      : new ExtractError('empty', '文件中没有可提取的文字', 'files.no_text');
  }
  const truncated = text.length > MAX_TEXT_CHARS;
  return {
    kind,
    text: truncated ? cut(text, MAX_TEXT_CHARS) + TRUNCATION_MARKER : text,
    truncated,
    ...(extracted.title !== undefined && { title: extracted.title }),
    ...(extracted.pages !== undefined && { pages: extracted.pages }),
  };
}

async function decideKind(bytes: Uint8Array, file: { filename: string; mimeType?: string }): Promise<FileKind> {
  const name = baseName(file.filename);
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  if (extension === 'doc') throw new ExtractError('unsupported_type', '不支持旧版 Word（.doc）文件，请另存为 .docx 后上传', 'files.doc_unsupported');
  if (extension && !EXTENSIONS[extension]) throw new ExtractError('unsupported_type', `不支持 .${extension} 文件。${SUPPORTED}`, 'files.extension_unsupported', { extension });
  const sniffed = await sniff(bytes);
  const claimed = extension ? EXTENSIONS[extension]! : file.mimeType ? kindOf(file.mimeType) : undefined;
  if (claimed === undefined) {
    if (sniffed === 'pdf' || sniffed === 'docx') return sniffed;
    if (sniffed === 'text') return 'txt';
    throw new ExtractError('unsupported_type', `无法识别的文件类型。${SUPPORTED}`, 'files.type_unknown');
  }
  const textual = claimed !== 'pdf' && claimed !== 'docx';
  if (textual && sniffed === 'undecodable') throw new ExtractError('encoding', '无法识别文本编码，请另存为 UTF-8 后再上传', 'files.encoding');
  const agrees = textual ? sniffed === 'text' : sniffed === claimed;
  if (!agrees) {
    // `actual` is a word the catalogue puts into each language (text, other) unless it is a format's own name.
    const actual = sniffed === 'pdf' || sniffed === 'docx' ? sniffed.toUpperCase() : sniffed === 'text' ? 'text' : 'other';
    const actually = actual === 'text' ? '文本' : actual === 'other' ? '其他格式' : actual;
    throw new ExtractError('type_mismatch', `文件内容与扩展名不符：名为 ${claimed.toUpperCase()}，内容却是${actually}`, 'files.type_mismatch', { claimed: claimed.toUpperCase(), actual });
  }
  return claimed;
}

/** `undecodable`: no NUL bytes nor a known signature, so meant as text, but in an encoding we do not read. */
type Sniffed = 'pdf' | 'docx' | 'text' | 'undecodable' | 'binary';

async function sniff(bytes: Uint8Array): Promise<Sniffed> {
  // A UTF-16 byte-order mark looks like an MPEG audio frame header to file-type, so it goes first.
  if (hasUtf16Bom(bytes)) return decodeText(bytes) !== null ? 'text' : 'undecodable';
  const detected = await fileTypeFromBuffer(bytes);
  if (detected?.ext === 'pdf') return 'pdf';
  if (detected?.ext === 'docx' || detected?.ext === 'zip') return isDocx(bytes) ? 'docx' : 'binary';
  // file-type reports XML for XHTML and for HTML starting with an XML declaration; both are text.
  if (detected !== undefined && detected.ext !== 'xml') return 'binary';
  if (decodeText(bytes) !== null) return 'text';
  return bytes.includes(0) ? 'binary' : 'undecodable';
}

/** Documents with a parser behind them are read in the sandbox's worker threads; plain text is only decoded, here. */
async function read(kind: FileKind, bytes: Uint8Array, sandbox: DocumentSandbox): Promise<{ text: string; title?: string; pages?: number }> {
  switch (kind) {
    case 'pdf':
    case 'docx':
    case 'html':
      return sandbox.run({ task: 'text', kind, bytes, maxChars: MAX_TEXT_CHARS });
    case 'md': {
      const text = plainText(bytes);
      const title = /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(text)?.[1]?.trim();
      return { text, ...(title && { title }) };
    }
    case 'txt':
      return { text: plainText(bytes) };
  }
}

const hasUtf16Bom = (bytes: Uint8Array) => (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);

function plainText(bytes: Uint8Array): string {
  const text = decodeText(bytes);
  if (text === null) throw new ExtractError('encoding', '无法识别文本编码，请另存为 UTF-8 后再上传', 'files.encoding');
  return text;
}

const baseName = (filename: string) => filename.replace(/\\/g, '/').split('/').pop() ?? '';

/** Cuts at `length` code units without splitting a surrogate pair. */
function cut(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}
