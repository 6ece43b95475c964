import { useEffect, useRef, useState } from 'react';
import type { EngineerCommandDto, EngineerNode, EngineerSessionStatus } from '@scriptorium/domain/protocol/engineer';
import { engineerApi, flattenTree } from '../api/engineer.ts';
import { LiveSession, type LiveState } from './live.ts';

export interface LiveView {
  nodes: ReadonlyMap<string, EngineerNode>;
  commands: readonly EngineerCommandDto[];
  status: EngineerSessionStatus | null;
  truncated: boolean;
  live: LiveState;
  failed: boolean;
  sendInput(text: string): boolean;
}

const upsert = (commands: readonly EngineerCommandDto[], id: string, change: (command: EngineerCommandDto) => EngineerCommandDto) => commands.map((command) => (command.id === id ? change(command) : command));

/**
 * A session as it is now and as it changes: the socket opens first and says from which position
 * it is live, then the tree and the commands load; what the socket brings merges by id, so a node
 * both loaded and streamed shows once.
 */
export function useLiveSession(sessionId: string | undefined, onStatus: () => void): LiveView | null {
  const [view, setView] = useState<Omit<LiveView, 'sendInput'> | null>(null);
  const [connection, setConnection] = useState<LiveSession | null>(null);
  // The latest callback, read when a status arrives, so a new function each render does not reopen the socket.
  const statusChanged = useRef(onStatus);
  useEffect(() => {
    statusChanged.current = onStatus;
  }, [onStatus]);

  useEffect(() => {
    if (!sessionId) return;
    setView({ nodes: new Map(), commands: [], status: null, truncated: false, live: 'connecting', failed: false });
    let loaded = false;
    const merge = (nodes: EngineerNode[]) => setView((current) => current && { ...current, nodes: new Map([...current.nodes, ...nodes.map((node): [string, EngineerNode] => [node.id, node])]) });
    const load = async () => {
      try {
        const [tree, commands] = await Promise.all([engineerApi.tree(sessionId), engineerApi.commands(sessionId)]);
        merge(flattenTree(tree.tree));
        setView((current) => current && { ...current, status: current.status ?? tree.session.status, truncated: tree.truncated, commands: commands.commands });
      } catch {
        setView((current) => current && { ...current, failed: true });
      }
    };
    const live = new LiveSession(
      sessionId,
      (message) => {
        switch (message.type) {
          case 'subscribed':
            if (!loaded) void load();
            loaded = true;
            return;
          case 'nodes':
            return merge(message.nodes);
          case 'status':
            setView((current) => current && { ...current, status: message.status });
            return statusChanged.current();
          case 'command':
            return setView((current) => current && (current.commands.some((command) => command.id === message.command.id) ? current : { ...current, commands: [...current.commands, { ...message.command, delivered_to: [], result: null }] }));
          case 'command_delivered':
            return setView((current) => current && { ...current, commands: upsert(current.commands, message.command_id, (command) => ({ ...command, delivered_to: [...new Set([...command.delivered_to, message.client_id])] })) });
          case 'command_result':
            return setView((current) => current && { ...current, commands: upsert(current.commands, message.command_id, (command) => ({ ...command, result: message.result })) });
          default:
            return;
        }
      },
      (state) => {
        setView((current) => current && { ...current, live: state });
        if (state === 'closed') setView((current) => current && { ...current, failed: true });
      },
    );
    setConnection(live);
    return () => live.close();
  }, [sessionId]);

  if (!sessionId || !view) return null;
  return { ...view, sendInput: (text) => connection?.sendInput(text) ?? false };
}
