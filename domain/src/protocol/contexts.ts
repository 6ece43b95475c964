/**
 * What a research session reads besides the web, as the wire names it: the kinds of file an upload
 * becomes, and the choices of the report preference (length, register, language). The spec names
 * the preference call but not its fields; these are the choices the writing agent can honour.
 */
export const CONTEXT_FILE_TYPES = ['txt', 'md', 'pdf', 'docx', 'html'] as const;
export const PREFERENCE_LENGTHS = ['short', 'medium', 'long'] as const;
export const PREFERENCE_STYLES = ['academic', 'professional', 'popular'] as const;
export const PREFERENCE_LANGUAGES = ['zh', 'en'] as const;
