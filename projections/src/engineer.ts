import type { RecordedEvent } from '@scriptorium/infra/eventstore/port';
import type { Collection, Doc } from '@scriptorium/infra/readstore/port';
import { assertNever } from '@scriptorium/infra/eventsourcing/decider';
import type { EngineerEvent, EngineerSource } from '@scriptorium/domain/engineer/session';
import { ENGINEER_EVENT_TYPES } from '@scriptorium/domain/engineer/session';
import type { EngineerCommandDto, EngineerNode, EngineerSessionStatus } from '@scriptorium/domain/protocol/engineer';
import { countOnce, type Projection } from './projection.ts';

export interface EngineerSessionDoc extends Doc {
  owner_id: string;
  title: string;
  task_description: string;
  source: EngineerSource;
  status: EngineerSessionStatus;
  created_at: string;
  updated_at: string;
  node_count: number;
  command_count: number;
  tokens: number;
  by_type: Record<string, number>;
  by_status: Record<string, number>;
  /** The earliest and latest node timestamps: the session's working time. */
  first_node_at: string | null;
  last_node_at: string | null;
}

export type EngineerNodeDoc = Doc &
  EngineerNode & {
    session_id: string;
    /** `timestamp` in UTC then the id: one string that orders nodes totally, so a cursor is one comparison an index serves. */
    sort_key: string;
    position: number;
  };

export type EngineerCommandDoc = Doc & EngineerCommandDto & { session_id: string };

export const ENGINEER_SESSIONS = 'engineer_sessions';
export const ENGINEER_NODES = 'engineer_nodes';
export const ENGINEER_COMMANDS = 'engineer_commands';

export const nodeDocId = (sessionId: string, nodeId: string): string => `${sessionId}:${nodeId}`;
export const commandDocId = (sessionId: string, commandId: string): string => `${sessionId}:${commandId}`;
export const nodeSortKey = (timestamp: string, nodeId: string): string => `${new Date(timestamp).toISOString()}|${nodeId}`;

/** The session's working time widened to these nodes' times (an update that moves a node earlier or later widens it too). */
function workingSpan(known: EngineerSessionDoc | null, nodes: readonly EngineerNode[]): { first_node_at: string | null; last_node_at: string | null } {
  const times = [known?.first_node_at, known?.last_node_at, ...nodes.map((node) => new Date(node.timestamp).toISOString())].filter((time): time is string => !!time).sort();
  return { first_node_at: times[0] ?? null, last_node_at: times.at(-1) ?? null };
}

export const engineerProjection: Projection = {
  name: 'engineer',
  collections: [ENGINEER_SESSIONS, ENGINEER_NODES, ENGINEER_COMMANDS],
  handles: ENGINEER_EVENT_TYPES,
  async setup(store) {
    await store.collection(ENGINEER_SESSIONS).ensureIndex({ fields: { owner_id: 1, updated_at: -1 } });
    // The sort ends in _id so that the index alone orders a page: a cursor reads `limit` entries whatever the session's length.
    await store.collection(ENGINEER_NODES).ensureIndex({ fields: { session_id: 1, sort_key: -1, _id: -1 } });
    await store.collection(ENGINEER_COMMANDS).ensureIndex({ fields: { session_id: 1, seq: 1 } });
  },
  async apply(recorded: RecordedEvent, tx) {
    const sessions = tx.collection<EngineerSessionDoc>(ENGINEER_SESSIONS);
    const commands = tx.collection<EngineerCommandDoc>(ENGINEER_COMMANDS);
    const event = { type: recorded.type, data: recorded.data } as EngineerEvent;
    const { sessionId, at } = event.data;
    switch (event.type) {
      case 'EngineerSessionCreated': {
        const { ownerId, title, taskDescription, source } = event.data;
        await sessions.put({
          _id: sessionId,
          owner_id: ownerId,
          title,
          task_description: taskDescription,
          source,
          status: 'running',
          created_at: at,
          updated_at: at,
          node_count: 0,
          command_count: 0,
          tokens: 0,
          by_type: {},
          by_status: {},
          first_node_at: null,
          last_node_at: null,
        });
        return;
      }
      case 'EngineerNodesAppended': {
        const nodes = tx.collection<EngineerNodeDoc>(ENGINEER_NODES);
        const inc: Record<string, number> = { node_count: event.data.nodes.length };
        const add = (key: string, by: number) => (inc[key] = (inc[key] ?? 0) + by);
        for (const node of event.data.nodes) {
          await nodes.put({ ...node, _id: nodeDocId(sessionId, node.id), session_id: sessionId, sort_key: nodeSortKey(node.timestamp, node.id), position: recorded.position });
          add(`by_type.${node.node_type}`, 1);
          add(`by_status.${node.status}`, 1);
          add('tokens', node.tokens ?? 0);
        }
        await countOnce(sessions, sessionId, recorded.position, { $inc: inc, $set: { updated_at: at, ...workingSpan(await sessions.get(sessionId), event.data.nodes) } });
        return;
      }
      case 'EngineerNodesUpdated': {
        // The counters move from each node's old version to its new one; a node whose doc already holds
        // this position was applied before a crash, and the session's counters only once (countOnce).
        const nodes = tx.collection<EngineerNodeDoc>(ENGINEER_NODES);
        const inc: Record<string, number> = {};
        const add = (key: string, by: number) => (inc[key] = (inc[key] ?? 0) + by);
        const changed: EngineerNodeDoc[] = [];
        for (const node of event.data.nodes) {
          const old = await nodes.get(nodeDocId(sessionId, node.id));
          if (!old || old.position >= recorded.position) continue;
          add(`by_status.${old.status}`, -1);
          add(`by_status.${node.status}`, 1);
          add('tokens', (node.tokens ?? 0) - (old.tokens ?? 0));
          changed.push({ ...node, _id: old._id, session_id: sessionId, sort_key: nodeSortKey(node.timestamp, node.id), position: recorded.position });
        }
        await countOnce(sessions, sessionId, recorded.position, { $inc: inc, $set: { updated_at: at, ...workingSpan(await sessions.get(sessionId), changed) } });
        for (const doc of changed) await nodes.put(doc);
        return;
      }
      case 'EngineerStatusChanged':
        await sessions.update(sessionId, { $set: { status: event.data.status, updated_at: at } });
        return;
      case 'EngineerCommandIssued': {
        const { commandId, seq, commandType, content, clientId } = event.data;
        await commands.put({ _id: commandDocId(sessionId, commandId), session_id: sessionId, id: commandId, seq, command_type: commandType, content, client_id: clientId, created_at: at, delivered_to: [], result: null });
        await sessions.update(sessionId, { $set: { command_count: seq, updated_at: at } });
        return;
      }
      case 'EngineerCommandDelivered': {
        const id = commandDocId(sessionId, event.data.commandId);
        const known = await commands.get(id);
        if (known && !known.delivered_to.includes(event.data.clientId)) await commands.update(id, { $set: { delivered_to: [...known.delivered_to, event.data.clientId] } });
        return;
      }
      case 'EngineerCommandResultRecorded': {
        const { commandId, status, result, errorMessage } = event.data;
        await commands.update(commandDocId(sessionId, commandId), { $set: { result: { status, result, error_message: errorMessage, recorded_at: at } } });
        return;
      }
      default:
        assertNever(event);
    }
  },
};

/**
 * One keyset page of a session's nodes, newest first: `down` reads older than `after`, `up` newer.
 * One range read of `limit + 1` entries of the (session, sort_key, _id) index, so a page costs the
 * same in a session of a thousand nodes or a hundred thousand. Docs come back in the read's order.
 */
export async function nodePage(nodes: Collection<EngineerNodeDoc>, sessionId: string, after: string | undefined, direction: 'up' | 'down', limit: number): Promise<{ docs: EngineerNodeDoc[]; hasMore: boolean }> {
  const down = direction === 'down';
  const order = down ? -1 : 1;
  const found = await nodes.find({ session_id: sessionId, ...(after !== undefined && { sort_key: down ? { $lt: after } : { $gt: after } }) }, { sort: { sort_key: order, _id: order }, limit: limit + 1 });
  return { docs: found.slice(0, limit), hasMore: found.length > limit };
}
