/** Pure rules of the session list (spec §4, §5); the store applies them. */

export type CloseTarget = { kind: 'switch'; id: string } | { kind: 'stay' } | { kind: 'create' };

export const canClose = (openIds: readonly string[]): boolean => openIds.length > 1;

/** Closing the active session moves to the next one, else the previous one, else a new default session. */
export function closeTarget(openIds: readonly string[], closing: string, activeId: string | null): CloseTarget {
  if (closing !== activeId) return { kind: 'stay' };
  const index = openIds.indexOf(closing);
  const next = openIds[index + 1];
  if (next !== undefined) return { kind: 'switch', id: next };
  const previous = index > 0 ? openIds[index - 1] : undefined;
  if (previous !== undefined) return { kind: 'switch', id: previous };
  return { kind: 'create' };
}

/** Local storage: the sessions open in this browser, restored together after a reload. */
export const OPEN_SESSIONS_KEY = 'open_conversation_ids';
export const CURRENT_CONVERSATION_KEY = 'current_conversation_id';

export interface StartupDeps {
  urlId: string | null;
  localId: string | null;
  /** The sessions that were open before the reload, in their order. */
  openIds: readonly string[];
  /** The newest cloud chat (fetched with limit 1), or null. */
  newestChat(): Promise<{ id: string; message_count: number } | null>;
}

/**
 * Startup on /research when signed in: every session open before the reload comes back, with the
 * URL's conversation_id (else the stored current_conversation_id) shown. With nothing remembered, the
 * newest cloud chat is opened, even an empty one: making another empty session each time is what
 * piled empty sessions up in the history. Nothing at all means a new default session.
 */
export async function startupPlan(deps: StartupDeps): Promise<{ ids: string[]; active: string | null }> {
  const ids = [...new Set([...deps.openIds, deps.urlId, deps.localId].filter((id): id is string => typeof id === 'string' && id !== ''))];
  if (ids.length > 0) return { ids, active: deps.urlId ?? deps.localId ?? ids.at(-1)! };
  const newest = await deps.newestChat().catch(() => null);
  return newest ? { ids: [newest.id], active: newest.id } : { ids: [], active: null };
}

/** The stored list of open sessions; anything unreadable counts as none. */
export function readOpenIds(raw: string | null): string[] {
  try {
    const parsed: unknown = JSON.parse(raw ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** A blank rename cancels the edit: the old name stays. */
export const renamed = (current: string, input: string): string | null => {
  const name = input.trim();
  return name === '' || name === current ? null : name;
};

/** A shared conversation is shown as a read-only session with this id, never a real session's uuid. */
export const sharedSessionId = (shareId: string): string => `share-${shareId}`;

export const shareIdOf = (sessionId: string): string | null => (sessionId.startsWith('share-') ? sessionId.slice('share-'.length) : null);

export interface LabelWords {
  /** The default session name in every language the client speaks: what it may have named a session. */
  defaultNames: readonly string[];
  /** The default name in the reader's language. */
  defaultName: string;
  unnamed: string;
}

/**
 * The label a session goes by: its title, else its name. A session still called by the default name
 * the client gave it (in whichever language it was created) reads in the reader's language; a name a
 * user typed stays as typed.
 */
export function sessionLabel(session: { title: string | null; name: string }, words: LabelWords): string {
  const label = session.title || session.name;
  if (!label) return words.unnamed;
  return words.defaultNames.includes(label) ? words.defaultName : label;
}
