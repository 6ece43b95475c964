export type NavEntryId = 'conversation' | 'notes' | 'cognition' | 'cliTrajectories';
export type SubPanelKind = 'research' | 'note' | 'cognition' | 'cli';

const within = (pathname: string, base: string) => pathname === base || pathname.startsWith(`${base}/`);

export const CLI_TRAJECTORIES_PATH = '/cli/trajectories';

/** The four sidebar entries; the CLI one toggles between the trajectory list and research. */
export function navTarget(entry: NavEntryId, pathname: string): string {
  switch (entry) {
    case 'conversation':
      return '/research';
    case 'notes':
      return '/note';
    case 'cognition':
      return '/cognition';
    case 'cliTrajectories':
      return within(pathname, CLI_TRAJECTORIES_PATH) ? '/research' : CLI_TRAJECTORIES_PATH;
  }
}

export function isNavEntryActive(entry: NavEntryId, pathname: string): boolean {
  switch (entry) {
    case 'conversation':
      return within(pathname, '/research');
    case 'notes':
      return within(pathname, '/note');
    case 'cognition':
      return within(pathname, '/cognition');
    case 'cliTrajectories':
      return within(pathname, CLI_TRAJECTORIES_PATH);
  }
}

export function subPanelFor(pathname: string): SubPanelKind | null {
  if (within(pathname, '/research')) return 'research';
  if (within(pathname, '/note')) return 'note';
  if (within(pathname, '/cognition')) return 'cognition';
  if (within(pathname, '/cli')) return 'cli';
  return null;
}

/** Avatar initials: the first character of a Chinese name, else up to two word initials. */
export function initials(name: string): string {
  const words = name.trim().split(/[\s._-]+/u).filter(Boolean);
  const first = words[0];
  if (first === undefined) return '?';
  const firstChar = [...first][0] ?? '?';
  if (/\p{Script=Han}/u.test(firstChar)) return firstChar;
  return words
    .slice(0, 2)
    .map((word) => [...word][0] ?? '')
    .join('')
    .toUpperCase();
}
