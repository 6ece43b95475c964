/**
 * Turns bytes believed to be text into a string. UTF-8 first (with or without BOM), UTF-16 when a
 * BOM says so, then GB18030, which covers the GBK/GB2312 files that Chinese Windows editors still
 * save by default. Returns null for bytes that are not text in any of these.
 */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return tryDecode('utf-16le', bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return tryDecode('utf-16be', bytes.subarray(2));
  if (bytes.includes(0)) return null;
  const utf8 = tryDecode('utf-8', bytes);
  if (utf8 !== null) return utf8;
  const gb = tryDecode('gb18030', bytes);
  return gb !== null && !CONTROL.test(gb) ? gb : null;
}

/** Decodes with a charset named by the document itself (an HTML meta tag), when Node knows it. */
export function decodeWithLabel(bytes: Uint8Array, label: string): string | null {
  try {
    return tryDecode(label, bytes);
  } catch {
    return null;
  }
}

const CONTROL = /[\u0000-\u0008\u000e-\u001f]/;

function tryDecode(label: string, bytes: Uint8Array): string | null {
  try {
    return new TextDecoder(label, { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (error) {
    if (error instanceof RangeError) throw error;
    return null;
  }
}

/** Line endings to `\n`, control characters out, runs of blank lines down to one. */
export function normalizeText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .replace(/[ \t\u00a0]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
