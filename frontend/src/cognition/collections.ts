import { normaliseQuery } from './search.ts';

/** The library's collection search: every word must appear in the name or the description. */
export function filterCollections<T extends { name: string; description: string }>(collections: readonly T[], query: string): T[] {
  const words = normaliseQuery(query).toLowerCase().split(' ').filter(Boolean);
  if (words.length === 0) return [...collections];
  return collections.filter((collection) => {
    const text = `${collection.name}\n${collection.description}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/** A collection just saved goes first in the library (its list is newest first), once. */
export function withCollection<T extends { id: string }>(collections: readonly T[], saved: T): T[] {
  return [saved, ...collections.filter((collection) => collection.id !== saved.id)];
}

/** A collection after one of its cognitions was taken out: the server's new count and time, one card fewer. */
export function withoutItem<T extends { items: readonly { id: string }[] }>(detail: T, updated: Partial<Omit<T, 'items'>>, cognitionId: string): T {
  return { ...detail, ...updated, items: detail.items.filter((item) => item.id !== cognitionId) };
}
