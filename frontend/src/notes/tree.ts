import type { DropPosition, NoteSummary } from './api.ts';

export interface TreeNode {
  note: NoteSummary;
  children: TreeNode[];
}

/** The flat list as a tree, siblings in their order; a note whose parent is missing sits at the root. */
export function buildTree(notes: readonly NoteSummary[]): TreeNode[] {
  const byId = new Map(notes.map((note) => [note.id, { note, children: [] as TreeNode[] }]));
  const roots: TreeNode[] = [];
  for (const node of byId.values()) {
    const parent = node.note.parent_id === null ? undefined : byId.get(node.note.parent_id);
    (parent ? parent.children : roots).push(node);
  }
  const sort = (nodes: TreeNode[]) => {
    nodes.sort((a, b) => a.note.order - b.note.order);
    for (const node of nodes) sort(node.children);
  };
  sort(roots);
  return roots;
}

/** The ids below `id`, at any depth. */
export function descendants(notes: readonly NoteSummary[], id: string): Set<string> {
  const found = new Set<string>();
  const visit = (parent: string) => {
    for (const note of notes) {
      if (note.parent_id === parent && !found.has(note.id)) {
        found.add(note.id);
        visit(note.id);
      }
    }
  };
  visit(id);
  return found;
}

/**
 * For each note a link makes public, the note whose link it is: itself, or the nearest shared note
 * above it (a shared note's link opens the notes below it, including ones added later).
 */
export function sharedThrough(roots: readonly TreeNode[]): Map<string, NoteSummary> {
  const through = new Map<string, NoteSummary>();
  const stack = roots.map((node) => ({ node, sharer: node.note.shared ? node.note : null }));
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    if (entry.sharer) through.set(entry.node.note.id, entry.sharer);
    for (const child of entry.node.children) stack.push({ node: child, sharer: child.note.shared ? child.note : entry.sharer });
  }
  return through;
}

/** A note cannot be dropped onto itself or anything below it (spec §4). */
export function canDrop(notes: readonly NoteSummary[], dragged: string, target: string): boolean {
  return dragged !== target && !descendants(notes, dragged).has(target);
}

/** Where a drop lands by how far down the row the pointer is: top quarter before, bottom quarter after, else inside. */
export function dropPosition(offsetY: number, height: number): DropPosition {
  if (offsetY < height * 0.25) return 'before';
  if (offsetY > height * 0.75) return 'after';
  return 'inside';
}

/** Selecting a note also selects its children; unselecting unselects them too (spec §4). */
export function toggleSelection(notes: readonly NoteSummary[], selected: ReadonlySet<string>, id: string, on: boolean): Set<string> {
  const next = new Set(selected);
  for (const affected of [id, ...descendants(notes, id)]) {
    if (on) next.add(affected);
    else next.delete(affected);
  }
  return next;
}

/** The ids on the path to `id`, so the tree can open to show it. */
export function ancestors(notes: readonly NoteSummary[], id: string): string[] {
  const byId = new Map(notes.map((note) => [note.id, note]));
  const path: string[] = [];
  let parent = byId.get(id)?.parent_id ?? null;
  while (parent !== null && !path.includes(parent)) {
    path.push(parent);
    parent = byId.get(parent)?.parent_id ?? null;
  }
  return path;
}

/** A name as the user typed it: trimmed; blank means "cancel the edit" (spec §5). */
export function cleanName(raw: string): string | null {
  const name = raw.trim();
  return name === '' ? null : name;
}

/** The notes a pending delete hides: each pending note and everything below it. */
export function hiddenIds(notes: readonly NoteSummary[], pending: ReadonlySet<string>): Set<string> {
  const hidden = new Set<string>();
  for (const id of pending) {
    hidden.add(id);
    for (const below of descendants(notes, id)) hidden.add(below);
  }
  return hidden;
}

export interface VisibleRow {
  id: string;
  parentId: string | null;
  hasChildren: boolean;
}

/** The rows a reader sees, top to bottom (children of expanded notes only): what arrow keys walk. */
export function visibleRows(tree: readonly TreeNode[], expanded: ReadonlySet<string>): VisibleRow[] {
  const rows: VisibleRow[] = [];
  const walk = (nodes: readonly TreeNode[]) => {
    for (const { note, children } of nodes) {
      rows.push({ id: note.id, parentId: note.parent_id, hasChildren: children.length > 0 });
      if (children.length > 0 && expanded.has(note.id)) walk(children);
    }
  };
  walk(tree);
  return rows;
}

export type MoveKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight';

/**
 * Where Alt+arrow moves a note, as a drop would place it: up or down past its neighbour, right into
 * the note above it (as its last child), left out of its parent (just after it). Null at an edge.
 */
export function keyboardMove(roots: readonly TreeNode[], id: string, key: MoveKey): { targetId: string; position: DropPosition } | null {
  const find = (siblings: readonly TreeNode[], parent: TreeNode | null): { siblings: readonly TreeNode[]; parent: TreeNode | null; index: number } | null => {
    for (const [index, node] of siblings.entries()) {
      if (node.note.id === id) return { siblings, parent, index };
      const below = find(node.children, node);
      if (below) return below;
    }
    return null;
  };
  const place = find(roots, null);
  if (!place) return null;
  const { siblings, parent, index } = place;
  const previous = siblings[index - 1];
  const next = siblings[index + 1];
  switch (key) {
    case 'ArrowUp':
      return previous ? { targetId: previous.note.id, position: 'before' } : null;
    case 'ArrowDown':
      return next ? { targetId: next.note.id, position: 'after' } : null;
    case 'ArrowRight':
      return previous ? { targetId: previous.note.id, position: 'inside' } : null;
    case 'ArrowLeft':
      return parent ? { targetId: parent.note.id, position: 'after' } : null;
  }
}

/**
 * What a search of the tree shows: the notes whose name holds the words typed (any case), and the
 * notes above them, so each is seen where it lives. Null when nothing is typed: the whole tree.
 */
export function searchNotes(notes: readonly NoteSummary[], query: string): Set<string> | null {
  const wanted = query.trim().toLocaleLowerCase();
  if (wanted === '') return null;
  const shown = new Set<string>();
  for (const note of notes) {
    if (!note.name.toLocaleLowerCase().includes(wanted)) continue;
    shown.add(note.id);
    for (const above of ancestors(notes, note.id)) shown.add(above);
  }
  return shown;
}
