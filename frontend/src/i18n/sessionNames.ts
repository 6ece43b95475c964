/**
 * The default session name in each language, apart from the message bundles: a session named in one
 * language is shown under the reader's, and only the Chinese bundle is in the first load.
 */
export const DEFAULT_SESSION_NAMES: Readonly<Record<'zh' | 'en', string>> = { zh: '默认会话', en: 'Default session' };
