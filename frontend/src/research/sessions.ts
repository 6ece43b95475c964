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

export type StartupCandidate = { source: 'url' | 'local' | 'cloud'; id: string };

/**
 * An empty newest cloud chat younger than this is taken over at startup instead of making another
 * empty one: it is what a reload right after signing up, or a tab opened on another device a moment
 * ago, left behind. An older empty chat is left alone, as the spec orders, and a new session made.
 */
export const REUSE_EMPTY_SESSION_MS = 10 * 60_000;

export interface StartupDeps {
  urlId: string | null;
  localId: string | null;
  /** The newest cloud chat (fetched with limit 1), or null. */
  newestChat(): Promise<{ id: string; message_count: number; created_at: string } | null>;
  now: Date;
}

/**
 * Startup on /research when signed in, in the spec's order: the URL's conversation_id, else the
 * stored current_conversation_id, else the newest cloud chat if it has messages (or is an empty one
 * made moments ago). The caller tries each in turn and falls through on failure; the cloud is asked
 * only when the ones before have failed. Nothing left means a new default session.
 */
export async function* startupCandidates(deps: StartupDeps): AsyncGenerator<StartupCandidate> {
  if (deps.urlId) yield { source: 'url', id: deps.urlId };
  if (deps.localId && deps.localId !== deps.urlId) yield { source: 'local', id: deps.localId };
  const newest = await deps.newestChat().catch(() => null);
  if (!newest || newest.id === deps.urlId || newest.id === deps.localId) return;
  const age = deps.now.getTime() - Date.parse(newest.created_at);
  if (newest.message_count > 0 || (age >= 0 && age < REUSE_EMPTY_SESSION_MS)) yield { source: 'cloud', id: newest.id };
}

/** A blank rename cancels the edit: the old name stays. */
export const renamed = (current: string, input: string): string | null => {
  const name = input.trim();
  return name === '' || name === current ? null : name;
};

/** A shared conversation is shown as a read-only session with this id, never a real session's uuid. */
export const sharedSessionId = (shareId: string): string => `share-${shareId}`;

export const shareIdOf = (sessionId: string): string | null => (sessionId.startsWith('share-') ? sessionId.slice('share-'.length) : null);
