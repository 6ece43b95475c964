/** Spec §4: edit_report content of 1,500 characters or fewer, or with a section heading, is one block. */
export const EDIT_REPORT_THRESHOLD = 1_500;
export const EDIT_REPORT_CHUNK = 800;

export function splitReportContent(content: string): string[] {
  if (content.length <= EDIT_REPORT_THRESHOLD || /^#{1,6}\s/m.test(content)) return [content];
  const chunks: string[] = [];
  let current = '';
  for (const paragraph of content.split(/\n\s*\n/)) {
    if (current !== '' && current.length + paragraph.length + 2 > EDIT_REPORT_CHUNK) {
      chunks.push(current);
      current = paragraph;
    } else {
      current = current === '' ? paragraph : `${current}\n\n${paragraph}`;
    }
  }
  if (current !== '') chunks.push(current);
  return chunks;
}

/** Spec §2/§9: the text input is 140 to 400 px tall. */
export const INPUT_MIN_HEIGHT = 140;
export const INPUT_MAX_HEIGHT = 400;
export const clampInputHeight = (height: number): number => Math.min(INPUT_MAX_HEIGHT, Math.max(INPUT_MIN_HEIGHT, Math.round(height)));
