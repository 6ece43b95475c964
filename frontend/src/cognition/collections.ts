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
