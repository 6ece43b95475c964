import { RUN_COMMAND_TOOL, type EngineerNode } from '@scriptorium/domain/protocol/engineer';

export interface TreeRow {
  node: EngineerNode;
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
}

/** Each node's time, parsed once: a long session's rows are rebuilt as every page arrives, from the same node objects. */
const times = new WeakMap<EngineerNode, number>();
function timeOf(node: EngineerNode): number {
  let time = times.get(node);
  if (time === undefined) times.set(node, (time = Date.parse(node.timestamp)));
  return time;
}
/** UTC times written the same way (what agents send) order as text; others are compared as times. */
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
function byTime(a: EngineerNode, b: EngineerNode): number {
  const x = a.timestamp;
  const y = b.timestamp;
  const order = x.length === 24 && y.length === 24 && CANONICAL.test(x) && CANONICAL.test(y) ? (x < y ? -1 : x > y ? 1 : 0) : timeOf(a) - timeOf(b);
  return order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
/** Sorts a list of siblings unless it is in order already, as a walk from the oldest node leaves it. */
function inOrder(list: EngineerNode[]): void {
  for (let index = 1; index < list.length; index++) {
    if (byTime(list[index - 1]!, list[index]!) > 0) {
      list.sort(byTime);
      return;
    }
  }
}

/**
 * The rows a tree shows, depth first and oldest first at every level (how the work unfolded),
 * skipping the children of collapsed nodes. A node whose parent is not loaded shows at the root.
 */
export function visibleRows(nodes: ReadonlyMap<string, EngineerNode>, collapsed: ReadonlySet<string>): TreeRow[] {
  const children = new Map<string | null, EngineerNode[]>();
  for (const node of nodes.values()) {
    const parent = node.parent_id !== null && nodes.has(node.parent_id) ? node.parent_id : null;
    let list = children.get(parent);
    if (!list) children.set(parent, (list = []));
    list.push(node);
  }
  for (const list of children.values()) inOrder(list);
  const rows: TreeRow[] = [];
  // An explicit stack: a session's chain of steps can be deeper than the call stack.
  const stack: Array<{ node: EngineerNode; depth: number }> = (children.get(null) ?? []).map((node) => ({ node, depth: 0 })).reverse();
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    const kids = children.get(node.id) ?? [];
    const expanded = !collapsed.has(node.id);
    rows.push({ node, depth, hasChildren: kids.length > 0, expanded });
    if (expanded) for (let index = kids.length - 1; index >= 0; index--) stack.push({ node: kids[index]!, depth: depth + 1 });
  }
  return rows;
}

/** A catalogue code in the reader's language; undefined keeps the text the node recorded. */
export type Reword = (code: string, params: Record<string, string | number>) => string | undefined;

type Coded = { code?: string | undefined; params?: Record<string, string | number> | undefined };

/** A recorded text in the reader's language when its code is in the catalogue. */
const codedText = (recorded: string, payload: Coded, reword: Reword): string => (payload.code !== undefined ? reword(payload.code, payload.params ?? {}) : undefined) ?? recorded;

/** An error node's text: in the reader's language when its code is in the catalogue. */
export const errorNodeText = (payload: { message: string } & Coded, reword: Reword): string => codedText(payload.message, payload, reword);

/** A message node's text: a system note with a code is said in the reader's language. */
export const messageNodeText = (payload: { text: string } & Coded, reword: Reword): string => codedText(payload.text, payload, reword);

/** A line that says what a node is about, whatever its type. */
export function nodeSummary(node: EngineerNode, reword: Reword): string {
  switch (node.node_type) {
    case 'message':
      return node.title ?? messageNodeText(node.payload, reword);
    case 'thought':
      return node.title ?? node.payload.text;
    case 'tool_call':
      return node.title ?? node.payload.name;
    case 'command':
      return `$ ${node.payload.command}`;
    case 'output':
      return node.title ?? node.payload.text;
    case 'file_change':
      return `${node.payload.change} ${node.payload.path}`;
    case 'error':
      return errorNodeText(node.payload, reword);
  }
}

/**
 * Commands the assistant proposes and nobody has answered: a pending `run_command` node with nothing
 * recorded under it yet (the agent records the command it ran, or the refusal, as its child).
 */
export function openProposals(nodes: ReadonlyMap<string, EngineerNode>): Array<{ id: string; command: string }> {
  const answered = new Set<string>();
  for (const node of nodes.values()) if (node.parent_id !== null) answered.add(node.parent_id);
  const open: Array<{ id: string; command: string }> = [];
  for (const node of nodes.values()) {
    if (node.node_type !== 'tool_call' || node.status !== 'pending' || node.payload.name !== RUN_COMMAND_TOOL || answered.has(node.id)) continue;
    const command = node.payload.arguments['command'];
    if (typeof command === 'string') open.push({ id: node.id, command });
  }
  return open;
}

/**
 * How each answered proposal was answered, read from what is recorded under it: the command that
 * ran (approved) or a note that it was refused.
 */
export function proposalAnswers(nodes: ReadonlyMap<string, EngineerNode>): Map<string, 'approved' | 'rejected'> {
  const answers = new Map<string, 'approved' | 'rejected'>();
  for (const node of nodes.values()) {
    const parent = node.parent_id === null ? undefined : nodes.get(node.parent_id);
    if (!parent || parent.node_type !== 'tool_call' || parent.status !== 'pending' || parent.payload.name !== RUN_COMMAND_TOOL || answers.has(parent.id)) continue;
    answers.set(parent.id, node.node_type === 'command' ? 'approved' : 'rejected');
  }
  return answers;
}

/** The proposed command a node id names, for a command list that shows approvals by what they ran. */
export function proposedCommand(nodes: ReadonlyMap<string, EngineerNode>, id: string): string | null {
  const node = nodes.get(id);
  const command = node?.node_type === 'tool_call' ? node.payload.arguments['command'] : undefined;
  return typeof command === 'string' ? command : null;
}

/**
 * The socket's address: the page's own host, except on the Vite development ports, where the
 * api listens on 8002 (spec 02 §7).
 */
export function engineerSocketUrl(location: Pick<Location, 'protocol' | 'hostname' | 'host' | 'port'>, sessionId: string, token: string, lastPosition: number | null): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const host = location.port === '5173' || location.port === '5175' ? `${location.hostname}:8002` : location.host;
  const query = new URLSearchParams({ token, ...(lastPosition !== null && { last_position: String(lastPosition) }) });
  return `${scheme}://${host}/backend/api/ai-engineer/ws/sessions/${encodeURIComponent(sessionId)}?${query}`;
}
