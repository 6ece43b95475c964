import i18next from 'i18next';
import { ERROR_TEXTS, isErrorCode, localParams, type Lang } from '@scriptorium/domain/protocol/errors';

/** A catalogue text's `{name}` placeholder. */
const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * The kernel's error catalogue as an i18next namespace: one source of truth for the server's Chinese
 * detail and what the client shows. Codes are `area.what`, so they nest under i18next's key separator;
 * `{name}` placeholders become i18next's `{{name}}`.
 */
export function refusalResources(lang: Lang): Record<string, Record<string, string>> {
  const resources: Record<string, Record<string, string>> = {};
  for (const [code, texts] of Object.entries(ERROR_TEXTS)) {
    const [area = '', what = ''] = code.split('.');
    (resources[area] ??= {})[what] = texts[lang].replace(PLACEHOLDER, '{{$1}}');
  }
  return resources;
}

/**
 * A refusal code in a language other than Chinese, from the `refusals` namespace; undefined for a code
 * the catalogue lacks or whose placeholders `params` does not all fill. Loaded with that language
 * (`index.ts`), so the catalogue is not in the first load.
 */
export function renderRefusal(code: string, params: Record<string, string | number>, lang: Lang): string | undefined {
  if (!isErrorCode(code)) return undefined;
  // Without a value for each placeholder the text would show `{{name}}`: the caller's own text is better.
  for (const [, name] of ERROR_TEXTS[code][lang].matchAll(PLACEHOLDER)) if (!Object.hasOwn(params, name!)) return undefined;
  return i18next.t(`refusals:${code}`, { ...localParams(code, params, lang), lng: lang });
}
