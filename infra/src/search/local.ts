/**
 * Search over a user's own material (notes, uploads, cognition entries, sources of earlier reports),
 * the search that works with no network. An SQLite FTS5 index with the `trigram` tokenizer: it
 * matches any substring of three or more characters, so Chinese needs no word segmenter, and its
 * case folding covers Latin text. It is a derived index, rebuilt by upserting the documents again.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { SearchHit, SearchOptions, WebSearch } from './port.ts';

export const DOCUMENT_KINDS = ['note', 'upload', 'source', 'cognition'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export interface CorpusDocument {
  /** Unique across users: the id of the note, upload, cognition entry or source. */
  id: string;
  userId: string;
  kind: DocumentKind;
  title: string;
  url?: string;
  text: string;
}

export interface CorpusHit {
  id: string;
  kind: DocumentKind;
  title: string;
  url?: string;
  /** The text around the first place a query term occurs. */
  snippet: string;
}

export interface CorpusSearchOptions {
  /** Only these kinds; all by default. */
  kinds?: readonly DocumentKind[];
}

interface Row {
  id: string;
  kind: DocumentKind;
  title: string;
  url: string | null;
  body: string;
  rank: number | null;
}

const SNIPPET_CHARS = 160;
const SNIPPET_BEFORE = 40;
// Candidates read before re-ranking: enough for the coverage order to find the best few.
const MIN_CANDIDATES = 50;
const MAX_FTS_TOKENS = 24;

export class LocalCorpus {
  private readonly db: Database.Database;
  private readonly upsertStatement: Database.Statement;
  private readonly removeStatement: Database.Statement;
  private readonly titleStatement: Database.Statement;
  private readonly textStatement: Database.Statement;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // Rebuildable from the log, like the read models, so a lost last commit costs nothing.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS documents (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        user_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        title TEXT NOT NULL,
        url TEXT,
        body TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS documents_user ON documents (user_id, kind);
      CREATE VIRTUAL TABLE IF NOT EXISTS documents_fts USING fts5 (title, body, content = 'documents', content_rowid = 'seq', tokenize = 'trigram');
      CREATE TRIGGER IF NOT EXISTS documents_ai AFTER INSERT ON documents BEGIN
        INSERT INTO documents_fts (rowid, title, body) VALUES (new.seq, new.title, new.body);
      END;
      CREATE TRIGGER IF NOT EXISTS documents_ad AFTER DELETE ON documents BEGIN
        INSERT INTO documents_fts (documents_fts, rowid, title, body) VALUES ('delete', old.seq, old.title, old.body);
      END;
      CREATE TRIGGER IF NOT EXISTS documents_au AFTER UPDATE ON documents BEGIN
        INSERT INTO documents_fts (documents_fts, rowid, title, body) VALUES ('delete', old.seq, old.title, old.body);
        INSERT INTO documents_fts (rowid, title, body) VALUES (new.seq, new.title, new.body);
      END;
    `);
    this.upsertStatement = this.db.prepare(`
      INSERT INTO documents (id, user_id, kind, title, url, body) VALUES (@id, @userId, @kind, @title, @url, @text)
      ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, kind = excluded.kind, title = excluded.title, url = excluded.url, body = excluded.body
    `);
    this.removeStatement = this.db.prepare('DELETE FROM documents WHERE id = ?');
    this.titleStatement = this.db.prepare('UPDATE documents SET title = ? WHERE id = ?');
    this.textStatement = this.db.prepare('UPDATE documents SET body = ? WHERE id = ?');
  }

  upsert(document: CorpusDocument): void {
    this.upsertStatement.run({ ...document, url: document.url ?? null });
  }

  remove(id: string): void {
    this.removeStatement.run(id);
  }

  /** Changes what is known of a document already indexed; nothing for one that is not. */
  revise(id: string, change: { title?: string; text?: string }): void {
    if (change.title !== undefined) this.titleStatement.run(change.title, id);
    if (change.text !== undefined) this.textStatement.run(change.text, id);
  }

  /**
   * The user's documents that contain any term of the query, best first: those covering more of
   * the query's terms first, then by bm25 (title weighted above text). Terms of three characters
   * or more go through the trigram index; shorter ones (most Chinese words are two characters,
   * and so are `AI` or `5G`) cannot, and are matched with LIKE.
   */
  search(userId: string, query: string, limit = 10, options: CorpusSearchOptions = {}): CorpusHit[] {
    const terms = queryTerms(query);
    if (terms.length === 0 || limit <= 0) return [];
    const kinds = options.kinds && options.kinds.length > 0 ? [...options.kinds] : undefined;
    const kindFilter = kinds ? ` AND d.kind IN (${kinds.map(() => '?').join(', ')})` : '';
    const candidates = Math.max(limit * 5, MIN_CANDIDATES);
    const rows = new Map<string, Row>();

    const tokens = [...new Set(terms.flatMap(indexTokens))].slice(0, MAX_FTS_TOKENS);
    if (tokens.length > 0) {
      const match = tokens.map((token) => `"${token.replace(/"/g, '""')}"`).join(' OR ');
      const ranked = this.db
        .prepare(
          `SELECT d.id, d.kind, d.title, d.url, d.body, bm25(documents_fts, 3.0, 1.0) AS rank
           FROM documents_fts JOIN documents d ON d.seq = documents_fts.rowid
           WHERE documents_fts MATCH ? AND d.user_id = ?${kindFilter}
           ORDER BY rank LIMIT ?`,
        )
        .all(match, userId, ...(kinds ?? []), candidates) as Row[];
      for (const row of ranked) rows.set(row.id, row);
    }

    const short = terms.filter((term) => length(term) < 3);
    if (short.length > 0) {
      const like = short.map(() => `d.title LIKE ? ESCAPE '\\' OR d.body LIKE ? ESCAPE '\\'`).join(' OR ');
      const patterns = short.flatMap((term) => {
        const pattern = `%${term.replace(/[\\%_]/g, '\\$&')}%`;
        return [pattern, pattern];
      });
      const found = this.db
        .prepare(
          `SELECT d.id, d.kind, d.title, d.url, d.body, NULL AS rank FROM documents d
           WHERE d.user_id = ?${kindFilter} AND (${like})
           ORDER BY d.seq DESC LIMIT ?`,
        )
        .all(userId, ...(kinds ?? []), ...patterns, candidates) as Row[];
      for (const row of found) if (!rows.has(row.id)) rows.set(row.id, row);
    }

    return [...rows.values()]
      .map((row) => ({ row, coverage: coverage(terms, `${row.title}\n${row.body}`.toLowerCase()) }))
      .filter((entry) => entry.coverage > 0)
      .sort((a, b) => b.coverage - a.coverage || (a.row.rank ?? Infinity) - (b.row.rank ?? Infinity))
      .slice(0, limit)
      .map(({ row }) => ({ id: row.id, kind: row.kind, title: row.title, ...(row.url !== null && { url: row.url }), snippet: snippet(row.body, terms) }));
  }

  close(): void {
    this.db.close();
  }
}

/** The user's material as a search the research agent can call like the web. */
export class LocalSearch implements WebSearch {
  readonly name = 'local';
  readonly offline = true;

  constructor(
    private readonly corpus: LocalCorpus,
    private readonly kinds?: readonly DocumentKind[],
  ) {}

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    options.signal?.throwIfAborted();
    if (!options.userId) throw new TypeError('LocalSearch needs the userId whose material it searches');
    const hits = this.corpus.search(options.userId, query, options.limit ?? 10, this.kinds ? { kinds: this.kinds } : {});
    return hits.map((hit) => ({ title: hit.title, url: hit.url ?? `${hit.kind}:${hit.id}`, snippet: hit.snippet, source: hit.kind, id: hit.id }));
  }
}

// Question and request words: they say what the user wants done, not what the material is about.
const ZH_STOP = ['请帮我', '帮我', '请问', '介绍一下', '了解一下', '什么是', '是什么', '为什么', '怎么样', '有哪些', '什么', '怎么', '如何', '哪些', '哪个', '关于', '一下', '的'];
const zhStop = new RegExp(ZH_STOP.join('|'), 'gu');
const EN_STOP = new Set(
  'a an and are as at be by do does for from how in is it of on or the to what when where which who why with about into'.split(' '),
);

/**
 * The query's terms, lower-cased: runs of Han characters (split at question words and 的), and Latin
 * or digit words, lightly stemmed so that `batteries` and `battery` meet at `batter`. A single Han
 * character or a stop word is kept only when nothing else is left.
 */
export function queryTerms(query: string): string[] {
  const pieces: string[] = [];
  for (const [run] of query.toLowerCase().matchAll(/\p{Script=Han}+|[\p{L}\p{N}]+/gu)) {
    if (/\p{Script=Han}/u.test(run)) pieces.push(...run.replace(zhStop, ' ').split(' ').filter(Boolean));
    else pieces.push(run);
  }
  const meaningful = pieces.filter((piece) => (/\p{Script=Han}/u.test(piece) ? length(piece) >= 2 : !EN_STOP.has(piece))).map(stem);
  const chosen = meaningful.length > 0 ? meaningful : pieces;
  return [...new Set(chosen)];
}

function stem(word: string): string {
  if (!/^[a-z]+$/.test(word)) return word;
  if (word.length > 4 && word.endsWith('ies')) return word.slice(0, -3);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/**
 * What the trigram index is asked for: a Han run as its overlapping three-character windows, so
 * `固态电池产业化` finds text that says `固态电池` or `电池产业` without the exact run; other terms
 * whole. Terms under three characters have no token.
 */
function indexTokens(term: string): string[] {
  const chars = Array.from(term);
  if (chars.length < 3) return [];
  if (!/\p{Script=Han}/u.test(term) || chars.length === 3) return [term];
  const windows: string[] = [];
  for (let start = 0; start + 3 <= chars.length; start++) windows.push(chars.slice(start, start + 3).join(''));
  return windows;
}

/** How much of the query a text covers: one point per term found, a Han run earning the share of its windows found. */
function coverage(terms: string[], haystack: string): number {
  let score = 0;
  for (const term of terms) {
    if (find(haystack, term) >= 0) score += 1;
    else if (/\p{Script=Han}/u.test(term) && length(term) > 3) {
      const windows = indexTokens(term);
      score += windows.filter((window) => haystack.includes(window)).length / windows.length;
    }
  }
  return score;
}

/**
 * Where a term occurs in lower-cased text. A Latin or digit term must start a word, since the index
 * matches inside words: `ai` is not in `remain`, while the stem `batter` is in `battery`.
 */
function find(haystack: string, term: string): number {
  if (!/^[a-z0-9]+$/.test(term)) return haystack.indexOf(term);
  return new RegExp(`(?<![a-z0-9])${term}`).exec(haystack)?.index ?? -1;
}

function snippet(body: string, terms: string[]): string {
  const lower = body.toLowerCase();
  const needles = terms.flatMap((term) => [term, ...(length(term) > 3 ? indexTokens(term) : [])]);
  const positions = needles.map((needle) => find(lower, needle)).filter((position) => position >= 0);
  const first = positions.length > 0 ? Math.min(...positions) : 0;
  let start = Math.max(0, first - SNIPPET_BEFORE);
  let end = Math.min(body.length, start + SNIPPET_CHARS);
  // Never cut a surrogate pair (emoji, rare CJK) in half.
  if (/[\udc00-\udfff]/.test(body[start] ?? '')) start++;
  if (/[\ud800-\udbff]/.test(body[end - 1] ?? '')) end--;
  const text = body.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${text}${end < body.length ? '…' : ''}`;
}

function length(text: string): number {
  return Array.from(text).length;
}
