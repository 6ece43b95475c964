import type { ContextDocument } from '@scriptorium/infra/model/port';
import type { EmbeddingPort } from '@scriptorium/infra/embeddings/port';
import { LOCAL_LABELS, LOCAL_PAGES, localMaterialOf, pageOf, shownTitle, type LocalKind } from '@scriptorium/domain/protocol/sources';
import { ChunkIndex, excerptsBySource, type Chunk, type Floor } from './chunks.ts';
import { clip, type Language } from './text.ts';

export interface Source {
  /** The citation number: `[n]` in the report. */
  n: number;
  title: string;
  url: string;
  /** What the writer may draw on: the page text when the page was read, else snippet and summary. */
  text: string;
  /** Whether the page itself was read; false when all that is known of it is a search snippet. */
  read?: boolean;
  /** Material the user attached to the session: offered to every call it bears on at all. */
  attached?: boolean;
}

/** How the report's source list and the writer's context mark a source known only by its search snippet. */
export const SNIPPET_MARK: Record<Language, string> = { zh: '（仅据搜索摘要，未读原文）', en: ' (search snippet only; page not read)' };

/** Chunks one call is given at most, and of them at most this many from one source. */
const CONTEXT_CHUNKS = 7;
const CHUNKS_PER_SOURCE = 2;
/** Past 3 chunks, none under half the best one's score (measured in the lab: 12% fewer tokens, no citation lost); what the user attached is exempt. */
const CONTEXT_FLOOR: Floor = { share: 0.5, keep: 3 };
/** Characters of a source's head given to a call that names no focus, or whose focus nothing matches. */
const HEAD_CHARS = 2_400;
const MAX_TEXT = 40_000;

/**
 * The numbered sources of one report. Numbers never change once given, so a revision that adds
 * sources keeps every earlier citation pointing where it did.
 */
export class SourceBook {
  private readonly list: Source[] = [];
  private index: ChunkIndex | null = null;

  get all(): readonly Source[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  /** Adds a source, or enriches the one with the same address; returns its number. */
  add(source: Omit<Source, 'n'>, n?: number): number {
    const key = keyOf(source);
    const known = this.list.find((candidate) => keyOf(candidate) === key);
    this.index = null;
    if (known) {
      // A page read replaces what its snippet said; a snippet never replaces a page.
      if ((source.read && known.read === false) || (source.read !== false && source.text.length > known.text.length)) known.text = clip(source.text, MAX_TEXT);
      if (source.read) known.read = true;
      return known.n;
    }
    const next = n ?? this.list.reduce((max, candidate) => Math.max(max, candidate.n), 0) + 1;
    this.list.push({ ...source, title: source.title.replace(SNIPPET_TITLE_MARK, ''), text: clip(source.text, MAX_TEXT), n: next });
    return next;
  }

  /**
   * Embeds the chunks of every source and the focuses `context` will be asked with, so those calls
   * retrieve by meaning too. Sources added later drop the vectors with the index.
   */
  async embed(port: EmbeddingPort, focuses: readonly string[], signal?: AbortSignal): Promise<void> {
    this.index ??= new ChunkIndex(this.list);
    await this.index.embed(port, focuses, signal);
  }

  /** The whole stored text of source n (the page text when it was read, else its snippet and summary): what its citations are checked against. */
  textOf(n: number): string | undefined {
    return this.list.find((candidate) => candidate.n === n)?.text;
  }

  has(url: string): boolean {
    return this.list.some((candidate) => candidate.url === url);
  }

  urlOf(n: number): string | undefined {
    const url = this.list.find((candidate) => candidate.n === n)?.url;
    return url && /^https?:\/\//.test(url) ? url : undefined;
  }

  /**
   * What a model is given: the chunks of all sources that bear most on `focus` (what the call
   * writes about), found by BM25, each source's in reading order, so a fact deep in a page reaches
   * the call that needs it and a source with nothing on it costs no tokens. Providers number context
   * documents from 1 in order, so the list is padded to keep `[n]` meaning source n. A source known
   * only by its snippet says so in its title. Without a focus, or when nothing matches, each source
   * gives its head.
   */
  context(focus: string | undefined, language: Language = 'en'): ContextDocument[] {
    this.index ??= new ChunkIndex(this.list);
    const best = focus ? this.index.best(focus, CONTEXT_CHUNKS, CHUNKS_PER_SOURCE, this.floor()) : [];
    return this.documents(best, language);
  }

  /**
   * What each section of a report is given, as `context` gives one call, but no sentence to two
   * sections (`ChunkIndex.draft`): each says what the others do not. A section is also given the
   * notes of the pages among its `sources` (those its step found) that were read, whatever their
   * words: a fact their reader noted reaches the section though it shares no word with the step.
   */
  sections(sections: ReadonlyArray<{ focus: string; sources?: Iterable<number> }>, language: Language = 'en'): ContextDocument[][] {
    this.index ??= new ChunkIndex(this.list);
    const read = new Set(this.list.filter((source) => source.read).map((source) => source.n));
    const calls = sections.map(({ focus, sources = [] }) => ({ query: focus, first: this.index!.heads([...sources].filter((n) => read.has(n))) }));
    return this.index.draft(calls, CONTEXT_CHUNKS, CHUNKS_PER_SOURCE, this.floor()).map((chunks) => this.documents(chunks, language));
  }

  /** Past a few chunks none far below the best; what the user attached is offered whatever its score. */
  private floor(): Floor {
    return { ...CONTEXT_FLOOR, always: new Set(this.list.filter((source) => source.attached).map((source) => source.n)) };
  }

  private documents(chunks: readonly Chunk[], language: Language): ContextDocument[] {
    const picked = chunks.length > 0 ? excerptsBySource(chunks) : new Map<number, string>();
    const max = this.list.reduce((top, candidate) => Math.max(top, candidate.n), 0);
    const documents: ContextDocument[] = [];
    for (let n = 1; n <= max; n++) {
      const source = this.list.find((candidate) => candidate.n === n);
      const text = source && (picked.size > 0 ? picked.get(n) : clip(source.text, HEAD_CHARS));
      documents.push(source && text ? { title: `${source.title}${source.read === false ? SNIPPET_MARK[language] : ''}`, ...(source.url && { url: source.url }), text } : { title: '—', text: '' });
    }
    return documents;
  }

  /**
   * The report's source list, numbered as cited. Given the numbers the report cites, the sources it
   * only consulted follow under a heading of their own.
   */
  markdown(language: Language, cited?: ReadonlySet<number>): string {
    const heading = SOURCES_HEADING[language];
    if (this.list.length === 0) return `## ${heading}\n\n${language === 'zh' ? '（本次没有检索到可引用的资料。）' : '(No sources were found this time.)'}\n`;
    const line = (source: Source) => {
      const title = shownTitle(source.title) || source.url;
      if (/^https?:\/\//.test(source.url)) return `${source.n}. [${title}${source.read === false ? SNIPPET_MARK[language] : ''}](${source.url})`;
      const local = localMaterialOf(source.url);
      if (local) {
        const page = pageOf(local.kind, local.id);
        return page ? `${source.n}. [${title}](${page})` : `${source.n}. ${title}${LOCAL_LABELS[local.kind][language]}`;
      }
      return `${source.n}. ${title}${source.url ? ` (${source.url})` : ''}`;
    };
    const sorted = [...this.list].sort((a, b) => a.n - b.n);
    const consulted = cited ? sorted.filter((source) => !cited.has(source.n)) : [];
    // A report that cites nothing keeps one list: every source is all it has.
    const split = consulted.length > 0 && consulted.length < sorted.length;
    const listed = split ? sorted.filter((source) => cited!.has(source.n)) : sorted;
    const rest = split ? `\n### ${CONSULTED_HEADING[language]}\n\n${consulted.map(line).join('\n')}\n` : '';
    return `## ${heading}\n\n${listed.map(line).join('\n')}\n${rest}`;
  }
}

const keyOf = (source: Pick<Source, 'url' | 'title'>) => {
  const local = localMaterialOf(source.url);
  if (local) return `local:${local.kind}:${shownTitle(source.title)}`;
  return source.url ? source.url.replace(/#.*$/, '').replace(/\/$/, '') : `title:${source.title}`;
};

/** The address a source line of a report stands for: the web address, or the local material it links or labels. */
function addressOf(url: string | undefined, label: string | undefined): string {
  if (url) {
    for (const [kind, page] of Object.entries(LOCAL_PAGES)) {
      if (page && url.startsWith(page)) return `${kind}:${decodeURIComponent(url.slice(page.length))}`;
    }
    return url;
  }
  if (label) {
    const kind = (Object.keys(LOCAL_LABELS) as LocalKind[]).find((candidate) => Object.values(LOCAL_LABELS[candidate]).some((text) => text.trim() === label.trim()));
    if (kind) return `${kind}:`;
  }
  return '';
}

/** The snippet mark as a report's source list shows it, in either language, so a revision reads the title without it. */
const SNIPPET_TITLE_MARK = new RegExp(`(?:${Object.values(SNIPPET_MARK).map((mark) => mark.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);

export const SOURCES_HEADING: Record<Language, string> = { zh: '参考来源', en: 'Sources' };
/** Sources read for the report that no sentence cites. */
export const CONSULTED_HEADING: Record<Language, string> = { zh: '参阅但未引用', en: 'Consulted, not cited' };

export interface ParsedReport {
  /** The report without its source list. */
  body: string;
  sources: Array<{ n: number; title: string; url: string; read?: boolean }>;
}

/**
 * Splits a report the agent wrote into its body and its numbered source list, so a revision can
 * keep the numbers. A report without the list (edited away) is all body.
 */
export function parseReport(content: string): ParsedReport {
  const headings = [...content.matchAll(/^##\s+(参考来源|Sources)\s*$/gm)];
  const last = headings.at(-1);
  if (!last || last.index === undefined) return { body: content.trimEnd(), sources: [] };
  const body = content.slice(0, last.index).trimEnd();
  const sources: ParsedReport['sources'] = [];
  for (const line of content.slice(last.index).split('\n').slice(1)) {
    const linked = /^(\d+)\.\s+\[(.+)\]\((\S+)\)\s*$/.exec(line.trim());
    if (linked) {
      const read = !SNIPPET_TITLE_MARK.test(linked[2]!);
      sources.push({ n: Number(linked[1]), title: linked[2]!.replace(SNIPPET_TITLE_MARK, ''), url: addressOf(linked[3], undefined), ...(!read && { read }) });
      continue;
    }
    const labelled = /^(\d+)\.\s+(.+?)((?:（[^（）]+）)|(?:\s\((?:note|uploaded file|cognition|earlier source)\)))\s*$/.exec(line.trim());
    const label = labelled ? addressOf(undefined, labelled[3]) : '';
    if (labelled && label) {
      sources.push({ n: Number(labelled[1]), title: labelled[2]!, url: label });
      continue;
    }
    const plain = /^(\d+)\.\s+(.+?)(?:\s+\(([^()\s]+)\))?\s*$/.exec(line.trim());
    if (plain) sources.push({ n: Number(plain[1]), title: plain[2]!, url: plain[3] ?? '' });
  }
  return { body, sources };
}

/**
 * The sources of a report already written, under their numbers, with what the session stored of
 * each (`notes`: the text of the pages read, snippets, summaries); a source with nothing stored keeps
 * its title as its text, which the citation check knows to hold nothing.
 */
export function bookOf(report: ParsedReport, notes: ReadonlyMap<string, { text: readonly string[] }>): SourceBook {
  const sources = new SourceBook();
  for (const source of report.sources) {
    sources.add({ title: source.title, url: source.url, text: notes.get(source.url)?.text.join('\n') ?? source.title, ...(source.read === false && { read: false }) }, source.n);
  }
  return sources;
}
