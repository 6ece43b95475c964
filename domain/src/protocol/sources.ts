/**
 * Where a research source comes from. A web page is its address; the owner's own material is
 * `<kind>:<id>`, as the local search names it. A report links a note or a cognition to its page in
 * the product, and labels an upload or an earlier source by its kind.
 */
export type LocalKind = 'note' | 'upload' | 'cognition' | 'source';

const LOCAL_ADDRESS = /^(note|upload|cognition|source):(.*)$/;

export const LOCAL_PAGES: Partial<Record<LocalKind, string>> = { note: '/note?id=', cognition: '/cognition/display?id=' };

export const LOCAL_LABELS: Record<LocalKind, { zh: string; en: string }> = {
  note: { zh: '（笔记）', en: ' (note)' },
  upload: { zh: '（上传文件）', en: ' (uploaded file)' },
  cognition: { zh: '（认知）', en: ' (cognition)' },
  source: { zh: '（以往来源）', en: ' (earlier source)' },
};

/** A source's title as a report's source list shows it: without the brackets a Markdown link cannot hold. */
export const shownTitle = (title: string): string => title.replace(/[[\]]/g, '').trim();

/** The owner's material an address names, or null for a web address. */
export function localMaterialOf(address: string): { kind: LocalKind; id: string } | null {
  const local = LOCAL_ADDRESS.exec(address);
  return local ? { kind: local[1] as LocalKind, id: local[2]! } : null;
}

/** The link a report gives the owner's material, where it has a page. */
export function pageOf(kind: LocalKind, id: string): string | undefined {
  const page = LOCAL_PAGES[kind];
  return page && id ? `${page}${encodeURIComponent(id)}` : undefined;
}

/**
 * Whether a report cites a source: by its web address, by the page link it gives the owner's
 * material, or for material without a page by the title and kind label its source list shows.
 */
export function citedIn(report: string, address: string, title: string): boolean {
  const local = localMaterialOf(address);
  if (!local) return address !== '' && report.includes(address);
  const page = pageOf(local.kind, local.id);
  if (page) return report.includes(`](${page})`);
  const shown = shownTitle(title);
  return shown !== '' && Object.values(LOCAL_LABELS[local.kind]).some((label) => report.includes(`${shown}${label}`));
}
