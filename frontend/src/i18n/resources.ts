import { refusalResources } from './refusals.ts';
import { enResources } from './resources.en.ts';
import { zhResources } from './resources.zh.ts';

/** Every namespace in both languages: what /demo/i18n lays side by side and what the key test checks. */
export const resources = { zh: { ...zhResources, refusals: refusalResources('zh') }, en: enResources };
