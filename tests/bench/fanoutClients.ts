/**
 * The fan-out bench's socket clients, in a process of their own (`fanout.ts` starts several): the
 * sockets, their JSON parsing and the checks of what they received take no time from the server
 * measured, which runs in the bench's process. Driven over the IPC channel: each request carries an
 * `id`, answered once done with the same `id` (and `error` when it failed). The process ends with its
 * channel, so it never outlives the bench.
 */
import WebSocket from 'ws';
import { openSocket, type TestSocket } from '../support/socket.ts';

/** One subscription to open: a socket of `clientId` with `token`, subscribed to `sessionId`. */
export interface Slot {
  clientId: string;
  token: string | undefined;
  sessionId: string;
}

/** What the sockets of one process received in a drive, set against the log. */
export interface Received {
  delivered: number;
  metadataUpdates: number;
  missing: number;
  duplicated: number;
  outOfOrder: number;
  altered: number;
}

export type Request =
  | { op: 'open'; url: string; slots: Slot[] }
  | { op: 'ends'; timeoutMs: number }
  | { op: 'verify'; expected: Record<string, Array<[number, string]>>; settleMs: number }
  | { op: 'chunks'; replies: Record<string, string>; count: number; timeoutMs: number }
  | { op: 'openBare'; url: string; rooms: string[] }
  | { op: 'bareCount'; count: number; timeoutMs: number }
  | { op: 'close' };

export const CONNECT_CONCURRENCY = 50;

interface Subscriber {
  sessionId: string;
  socket: TestSocket;
  /** What the server said it had sent up to when the subscription began. */
  from: number;
}

let subscribers: Subscriber[] = [];
let bare: Array<{ socket: WebSocket; received: number }> = [];

async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** Resolves once `done` holds, checked after each message that arrives; rejects after `timeoutMs`. */
function whenAll(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const check = () => {
      if (done()) return resolve();
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setImmediate(check);
    };
    check();
  });
}

const messagesOf = (subscriber: Subscriber) => subscriber.socket.received.filter((message) => message.type === 'message' && message.session_id === subscriber.sessionId);

async function handle(request: Request): Promise<unknown> {
  switch (request.op) {
    case 'open':
      subscribers = await pool(request.slots, CONNECT_CONCURRENCY, async ({ clientId, token, sessionId }) => {
        const socket = await openSocket(request.url, clientId, token);
        socket.send({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe' } });
        const subscribed = await socket.next((message) => message.type === 'subscribed' && message.session_id === sessionId);
        return { sessionId, socket, from: subscribed.position as number };
      });
      return {};
    case 'ends': {
      const ends = await Promise.all(
        subscribers.map((subscriber) =>
          subscriber.socket.next((message) => message.type === 'message' && message.session_id === subscriber.sessionId && message.content.content_type === 'message_end', request.timeoutMs),
        ),
      );
      return { outcomes: ends.map((end) => end.content.outcome as string) };
    }
    case 'verify': {
      const expected = new Map(Object.entries(request.expected).map(([sessionId, wires]) => [sessionId, new Map(wires)]));
      // What the log holds after message_end (the status change appended with it) may still be in flight.
      const owed = (subscriber: Subscriber) => [...expected.get(subscriber.sessionId)!.keys()].filter((position) => position > subscriber.from).length;
      await whenAll(() => subscribers.every((subscriber) => messagesOf(subscriber).length >= owed(subscriber)), request.settleMs, 'the last messages').catch(() => undefined);
      const result: Received = { delivered: 0, metadataUpdates: 0, missing: 0, duplicated: 0, outOfOrder: 0, altered: 0 };
      for (const subscriber of subscribers) {
        const wires = expected.get(subscriber.sessionId)!;
        const messages = messagesOf(subscriber);
        const positions = messages.map((message) => message.position as number);
        const unique = new Set(positions);
        result.delivered += messages.length;
        result.metadataUpdates += subscriber.socket.received.filter((message) => message.type === 'metadata_update').length;
        result.duplicated += positions.length - unique.size;
        result.outOfOrder += positions.filter((position, i) => i > 0 && position <= positions[i - 1]!).length;
        result.missing += [...wires.keys()].filter((position) => position > subscriber.from && !unique.has(position)).length;
        result.altered += messages.filter((message) => wires.get(message.position) !== JSON.stringify(message)).length;
      }
      return result;
    }
    case 'chunks': {
      const counts = subscribers.map(() => 0);
      const seen = subscribers.map(() => 0);
      await whenAll(
        () =>
          subscribers.every((subscriber, index) => {
            const { received } = subscriber.socket;
            for (; seen[index]! < received.length; seen[index]!++) {
              const message = received[seen[index]!];
              if (message.type === 'message' && message.content.message_id === request.replies[subscriber.sessionId]) counts[index]! += 1;
            }
            return counts[index]! >= request.count;
          }),
        request.timeoutMs,
        'the saturation chunks',
      );
      return {};
    }
    case 'openBare':
      bare = await pool(request.rooms, CONNECT_CONCURRENCY, async (room) => {
        const client = { socket: new WebSocket(`${request.url}?room=${room}`), received: 0 };
        client.socket.on('message', (data) => {
          JSON.parse(data.toString());
          client.received += 1;
        });
        await new Promise((resolve, reject) => client.socket.once('open', resolve).once('error', reject));
        return client;
      });
      return {};
    case 'bareCount':
      await whenAll(() => bare.every((client) => client.received >= request.count), request.timeoutMs, 'the bare broadcast');
      return {};
    case 'close':
      for (const subscriber of subscribers) subscriber.socket.close();
      for (const client of bare) client.socket.terminate();
      subscribers = [];
      bare = [];
      return {};
  }
}

process.on('message', (message: Request & { id: number }) => {
  handle(message).then(
    (answer) => process.send!({ id: message.id, ...(answer as object) }),
    (error: unknown) => process.send!({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
process.once('disconnect', () => process.exit(0));
