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

export interface StartupDeps {
  urlId: string | null;
  localId: string | null;
  /** The newest cloud chat (fetched with limit 1), or null. */
  newestChat(): Promise<{ id: string; message_count: number } | null>;
}

/**
 * Startup on /research when signed in, in the spec's order: the URL's conversation_id, else the
 * stored current_conversation_id, else the newest cloud chat if it has messages. An empty result
 * means a new default session. The caller tries the candidates in order and falls through on failure.
 */
export async function startupCandidates(deps: StartupDeps): Promise<StartupCandidate[]> {
  const candidates: StartupCandidate[] = [];
  if (deps.urlId) candidates.push({ source: 'url', id: deps.urlId });
  if (deps.localId && deps.localId !== deps.urlId) candidates.push({ source: 'local', id: deps.localId });
  if (candidates.length > 0) return candidates;
  const newest = await deps.newestChat().catch(() => null);
  if (newest && newest.message_count > 0) candidates.push({ source: 'cloud', id: newest.id });
  return candidates;
}

/** A blank rename cancels the edit: the old name stays. */
export const renamed = (current: string, input: string): string | null => {
  const name = input.trim();
  return name === '' || name === current ? null : name;
};
