import { ERROR_TEXTS, type Lang } from '@scriptorium/domain/protocol/errors';

/**
 * The kernel's error catalogue as an i18next namespace: one source of truth for the server's Chinese
 * detail and what the client shows. Codes are `area.what`, so they nest under i18next's key separator;
 * `{name}` placeholders become i18next's `{{name}}`.
 */
export function refusalResources(lang: Lang): Record<string, Record<string, string>> {
  const resources: Record<string, Record<string, string>> = {};
  for (const [code, texts] of Object.entries(ERROR_TEXTS)) {
    const [area = '', what = ''] = code.split('.');
    (resources[area] ??= {})[what] = texts[lang].replace(/\{(\w+)\}/g, '{{$1}}');
  }
  return resources;
}
