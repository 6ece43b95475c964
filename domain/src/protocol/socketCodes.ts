/**
 * The socket's numbers, apart from its schemas (`ws.ts`): the client's first load needs the close
 * codes, and importing them from `ws.ts` would bring zod along before the socket's first message.
 */
export const HEARTBEAT_INTERVAL_MS = 3000;

export const CLOSE_UNAUTHORIZED = 4401;
/**
 * The token holds but an administrator deactivated the account: the client keeps the sign-in and
 * shows the inactive account's page (spec §4's guard) instead of asking to sign in again.
 */
export const CLOSE_ACCOUNT_INACTIVE = 4423;
export const CLOSE_NOT_FOUND = 4404;
/** A shared document's member was removed by its owner (or left): their sockets on it close, not to reconnect. */
export const CLOSE_REMOVED = 4403;
/** The token's scope does not reach this socket (an app's narrower token): the same answer as a removal, not to reconnect. */
export const CLOSE_FORBIDDEN = 4403;
/** 1012 (service restart), not 1001: the spec's client does not reconnect after 1000/1001, and after a restart it should. */
export const CLOSE_SHUTTING_DOWN = 1012;
