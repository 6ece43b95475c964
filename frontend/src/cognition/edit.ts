import { MAX_COLLECTION_NAME, MAX_SUMMARY, MAX_TAG, MAX_TAGS, MAX_TITLE } from '@scriptorium/domain/protocol/limits';

/** Tags are typed in one box; Chinese and Latin separators both split them. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(/[,，、;；\n]+/u).map((tag) => tag.trim()).filter(Boolean))];
}

export const tagsText = (tags: readonly string[]): string => tags.join(', ');

export interface EditForm {
  title: string;
  summary: string;
  tags: string;
}

/** i18n keys under `cognition:edit.errors.` */
export type EditError = 'titleRequired' | 'titleTooLong' | 'summaryTooLong' | 'tooManyTags' | 'tagTooLong';

export type EditCheck =
  | { ok: true; patch: { title: string; summary: string; tags: string[] } }
  | { ok: false; errors: Partial<Record<keyof EditForm, EditError>> };

/** Checked before sending so the form can point at the field; the server checks the same again. */
export function checkEdit(form: EditForm): EditCheck {
  const title = form.title.trim();
  const summary = form.summary.trim();
  const tags = parseTags(form.tags);
  const errors: Partial<Record<keyof EditForm, EditError>> = {};
  if (title === '') errors.title = 'titleRequired';
  else if (title.length > MAX_TITLE) errors.title = 'titleTooLong';
  if (summary.length > MAX_SUMMARY) errors.summary = 'summaryTooLong';
  if (tags.length > MAX_TAGS) errors.tags = 'tooManyTags';
  else if (tags.some((tag) => tag.length > MAX_TAG)) errors.tags = 'tagTooLong';
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, patch: { title, summary, tags } };
}

export type NameCheck = { ok: true; name: string } | { ok: false; error: 'nameRequired' | 'nameTooLong' };

export function checkCollectionName(text: string): NameCheck {
  const name = text.trim();
  if (name === '') return { ok: false, error: 'nameRequired' };
  if (name.length > MAX_COLLECTION_NAME) return { ok: false, error: 'nameTooLong' };
  return { ok: true, name };
}

const hasScheme = (text: string) => /^[a-z][a-z\d+.-]*:\/\//iu.test(text);
// "javascript:…" or "mailto:…", but not "example.com:8080/…" (a host and port).
const hasOtherScheme = (text: string) => /^[a-z][a-z\d+.-]*:(?!\d)/iu.test(text);

/** A URL the server will fetch: http or https with a dotted host (or localhost). Anything else is refused before the call. */
export function checkPageUrl(text: string): { ok: true; url: string } | { ok: false; error: 'urlRequired' | 'urlInvalid' } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: 'urlRequired' };
  if (!hasScheme(trimmed) && hasOtherScheme(trimmed)) return { ok: false, error: 'urlInvalid' };
  // People paste "example.com/page" without a scheme; the page is almost always on https.
  const candidate = hasScheme(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return { ok: false, error: 'urlInvalid' };
  }
  const webProtocol = url.protocol === 'http:' || url.protocol === 'https:';
  const realHost = url.hostname.includes('.') || url.hostname === 'localhost';
  return webProtocol && realHost ? { ok: true, url: url.toString() } : { ok: false, error: 'urlInvalid' };
}
