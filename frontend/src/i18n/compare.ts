import type { Language } from './language.ts';

/** One translation key of one namespace, with its text in each language (null where that language lacks it). */
export interface KeyRow {
  namespace: string;
  key: string;
  zh: string | null;
  en: string | null;
}

export interface Comparison {
  namespaces: string[];
  rows: KeyRow[];
  /** Rows a language has no text for: the key is absent there, or its text is empty. */
  missing: Record<Language, KeyRow[]>;
}

type Tree = Readonly<Record<string, unknown>>;

/** Nested messages as `a.b.c` keys (i18next's key separator) to their strings. */
export function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(tree)) {
    const key = prefix + name;
    if (typeof value === 'string') out.set(key, value);
    else if (value && typeof value === 'object') for (const [child, text] of flatten(value as Tree, `${key}.`)) out.set(child, text);
  }
  return out;
}

const present = (text: string | null): boolean => text !== null && text.trim() !== '';

/**
 * Lays both languages side by side, every namespace either language has. A namespace only one
 * language registers counts all its keys as missing in the other.
 */
export function compareLanguages(resources: Record<Language, Readonly<Record<string, Tree>>>): Comparison {
  const namespaces = [...new Set([...Object.keys(resources.zh), ...Object.keys(resources.en)])].sort();
  const rows: KeyRow[] = [];
  for (const namespace of namespaces) {
    const zh = flatten(resources.zh[namespace] ?? {});
    const en = flatten(resources.en[namespace] ?? {});
    for (const key of [...new Set([...zh.keys(), ...en.keys()])].sort()) rows.push({ namespace, key, zh: zh.get(key) ?? null, en: en.get(key) ?? null });
  }
  return { namespaces, rows, missing: { zh: rows.filter((row) => !present(row.zh)), en: rows.filter((row) => !present(row.en)) } };
}

export const isMissing = (row: KeyRow): boolean => !present(row.zh) || !present(row.en);

export interface RowFilter {
  /** '' for every namespace. */
  namespace: string;
  query: string;
  missingOnly: boolean;
}

/** The rows a filter keeps: the namespace, then the query found (case-insensitively) in the key or either text. */
export function filterRows(rows: readonly KeyRow[], filter: RowFilter): KeyRow[] {
  const needle = filter.query.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (filter.namespace === '' || row.namespace === filter.namespace) &&
      (!filter.missingOnly || isMissing(row)) &&
      (needle === '' || [`${row.namespace}:${row.key}`, row.zh ?? '', row.en ?? ''].some((text) => text.toLowerCase().includes(needle))),
  );
}
