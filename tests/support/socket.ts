import WebSocket from 'ws';

export interface TestSocket {
  received: any[];
  closed: Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
  /** Resolves with the first received message (past or future) matching, or rejects after `timeoutMs`. */
  next(predicate: (message: any) => boolean, timeoutMs?: number): Promise<any>;
  close(): void;
}

export const openSocket = (baseUrl: string, clientId: string, token?: string): Promise<TestSocket> =>
  openSocketAt(baseUrl, `/backend/conversation/ws/${clientId}`, token);

/** A socket on any path of the api; `query` adds to the token. */
export function openSocketAt(baseUrl: string, path: string, token?: string, query: Record<string, string> = {}): Promise<TestSocket> {
  const search = new URLSearchParams({ ...(token && { token }), ...query }).toString();
  const url = `${baseUrl.replace(/^http/, 'ws')}${path}${search ? `?${search}` : ''}`;
  const socket = new WebSocket(url);
  const received: any[] = [];
  const listeners = new Set<() => void>();
  socket.on('message', (data) => {
    received.push(JSON.parse(data.toString()));
    for (const listener of listeners) listener();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const api: TestSocket = {
    received,
    closed,
    send: (message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    // A bound to fail by, not a measure: generous, so a loaded machine is slow rather than failing.
    next: (predicate, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        let seen = 0;
        const check = () => {
          for (; seen < received.length; seen++) {
            if (predicate(received[seen])) {
              listeners.delete(check);
              clearTimeout(timer);
              resolve(received[seen]);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no matching socket message within ${timeoutMs} ms; got ${JSON.stringify(received.slice(-5))}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
    close: () => socket.close(1000),
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(api));
    socket.once('error', reject);
  });
}

/** The text a reply streamed over a socket, joined in arrival order. */
export const streamedText = (messages: any[], replyId: string, contentType = 'chat_chunk'): string =>
  messages
    .filter((message) => message.type === 'message' && message.content.message_id === replyId && message.content.content_type === contentType)
    .map((message) => message.content.content)
    .join('');
