import { anyErrorText, type ErrorCode } from '@scriptorium/domain/protocol/errors';
import { currentLanguage } from './index.ts';

/**
 * The error catalogue's text for a code, in the language shown. A module of its own: the catalogue
 * holds both languages' texts, which the first load does not need (screens that word refusals
 * themselves import this).
 */
export function catalogueText(code: ErrorCode, params: Readonly<Record<string, string | number>> = {}): string {
  return anyErrorText(code, params, currentLanguage());
}
