/**
 * The socket's numbers, apart from its schemas (`ws.ts`): the client's first load needs the close
 * codes, and importing them from `ws.ts` would bring zod along before the socket's first message.
 */
export const HEARTBEAT_INTERVAL_MS = 3000;

export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_NOT_FOUND = 4404;
/** A shared document's member was removed by its owner (or left): their sockets on it close, not to reconnect. */
export const CLOSE_REMOVED = 4403;
/** 1012 (service restart), not 1001: the spec's client does not reconnect after 1000/1001, and after a restart it should. */
export const CLOSE_SHUTTING_DOWN = 1012;
