import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { nodeRevision, type EngineerCommandDto, type EngineerNode, type EngineerSessionStatus } from '@scriptorium/domain/protocol/engineer';
import { engineerApi, type EngineerNodePage } from './api.ts';
import { queryKeys, useApiInfiniteQuery } from '../api/query.ts';
import { LiveSession, type LiveState } from './live.ts';

export interface LiveView {
  /** Every node known so far, oldest first: the pages walked from the session's start, then what the socket brought beyond them. */
  nodes: ReadonlyMap<string, EngineerNode>;
  commands: readonly EngineerCommandDto[];
  status: EngineerSessionStatus | null;
  /** The walk through the session's earlier nodes: more pages to read, one being read, and how to ask for the next. */
  history: { more: boolean; loading: boolean; loadMore: () => void };
  live: LiveState;
  failed: boolean;
  sendInput(text: string): boolean;
}

interface SocketView {
  nodes: ReadonlyMap<string, EngineerNode>;
  commands: readonly EngineerCommandDto[];
  status: EngineerSessionStatus | null;
  live: LiveState;
  failed: boolean;
  subscribed: boolean;
}

/** A node updated under its id: the version with the higher revision is the one to show, whichever way it came. */
const newer = (node: EngineerNode, known: EngineerNode | undefined): boolean => known === undefined || nodeRevision(node) > nodeRevision(known);

const upsert = (commands: readonly EngineerCommandDto[], id: string, change: (command: EngineerCommandDto) => EngineerCommandDto) => commands.map((command) => (command.id === id ? change(command) : command));

/**
 * A session as it is now and as it changes. The socket opens first and says from which position it
 * is live; then the earlier nodes are read page by page with the cursor, oldest first, as the tree
 * is scrolled towards its end, so a session of 100 000 nodes costs what is looked at. What the
 * socket brings is kept beside the pages and merged by id, so a node both read and streamed shows
 * once, in its latest revision, and nothing already read is fetched again.
 */
export function useLiveSession(sessionId: string | undefined, onStatus: () => void): LiveView | null {
  const [view, setView] = useState<SocketView | null>(null);
  const [connection, setConnection] = useState<LiveSession | null>(null);
  // The latest callback, read when a status arrives, so a new function each render does not reopen the socket.
  const statusChanged = useRef(onStatus);
  useEffect(() => {
    statusChanged.current = onStatus;
  }, [onStatus]);

  useEffect(() => {
    if (!sessionId) return;
    setView({ nodes: new Map(), commands: [], status: null, live: 'connecting', failed: false, subscribed: false });
    let loaded = false;
    const loadCommands = async () => {
      try {
        const { commands } = await engineerApi.commands(sessionId);
        setView((current) => current && { ...current, commands: [...commands, ...current.commands.filter((command) => !commands.some((known) => known.id === command.id))] });
      } catch {
        setView((current) => current && { ...current, failed: true });
      }
    };
    const live = new LiveSession(
      sessionId,
      (message) => {
        switch (message.type) {
          case 'subscribed':
            if (!loaded) void loadCommands();
            loaded = true;
            return setView((current) => current && (current.subscribed ? current : { ...current, subscribed: true }));
          case 'nodes':
            return setView((current) => {
              if (!current) return current;
              const nodes = new Map(current.nodes);
              for (const node of message.nodes) if (newer(node, nodes.get(node.id))) nodes.set(node.id, node);
              return { ...current, nodes };
            });
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

  // Read once the socket is live, so that what the walk does not reach the socket brings.
  const history = useApiInfiniteQuery<EngineerNodePage, string | null>({
    queryKey: queryKeys.engineer('nodes', sessionId),
    queryFn: (cursor) => engineerApi.newer(sessionId!, cursor),
    initialPageParam: null,
    // Walking up, `prev_cursor` names the newest node of the page while newer ones remain.
    getNextPageParam: (page) => page.prev_cursor ?? undefined,
    enabled: sessionId !== undefined && view?.subscribed === true,
    // Pages already read are not read again: the socket brings new nodes and new versions of read ones; a session opened again starts afresh.
    staleTime: Infinity,
    gcTime: 0,
  });
  const { data, hasNextPage, isFetching, fetchNextPage } = history;

  const streamed = view?.nodes;
  const nodes = useMemo(() => {
    const all = new Map<string, EngineerNode>();
    for (const page of data?.pages ?? []) for (let index = page.nodes.length - 1; index >= 0; index--) all.set(page.nodes[index]!.id, page.nodes[index]!);
    for (const node of streamed?.values() ?? []) if (newer(node, all.get(node.id))) all.set(node.id, node);
    return all;
  }, [data, streamed]);
  const started = data !== undefined;
  const loadMore = useCallback(() => {
    if (started) void fetchNextPage();
  }, [started, fetchNextPage]);

  if (!sessionId || !view) return null;
  return {
    nodes,
    commands: view.commands,
    status: view.status,
    // Until the first page is in, the session's start is still to come.
    history: { more: !started || hasNextPage, loading: !started || isFetching, loadMore },
    live: view.live,
    failed: view.failed || history.isError,
    sendInput: (text) => connection?.sendInput(text) ?? false,
  };
}
