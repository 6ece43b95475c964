import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import type { Services } from '../services.ts';
import { sendEncodedJson } from './compression.ts';
import { SESSION_HISTORY_PATH, type SessionHistories } from './conversation.ts';
import { beginRequest, endRequest, setApiCaching } from './requestLog.ts';
import { setSecurityHeaders } from './security.ts';

/** Where the API's routes live. */
export const API_PREFIX = '/backend';

type Handler = ReturnType<Koa['callback']>;
/** Answers a request itself, or hands it to `koa` untouched (nothing written to `res`). */
export type FrontRoute = (req: IncomingMessage, res: ServerResponse, koa: Handler) => void;

/** Koa whose server asks `front` first: what it does not answer goes through koa's middleware as ever. */
export class FrontedKoa extends Koa {
  front: FrontRoute | undefined;

  override callback(): Handler {
    const koa = super.callback();
    // Asked per request, so that a test can set it aside and compare with koa alone.
    // Koa's type admits HTTP/2 requests too; the product's server (`listen`) is HTTP/1.1.
    return async (req, res) => (this.front === undefined ? koa(req, res) : this.front(req as IncomingMessage, res as ServerResponse, koa));
  }
}

const HISTORY = /^\/backend\/conversation\/sessions\/([^/?#]+)\/messages(?:\?|$)/;

/**
 * The owner's cached history page (`GET /backend/conversation/sessions/{id}/messages`) answered
 * before koa's middleware, whose fixed cost per request (the router's ~300 routes, the body parser,
 * the error and compression layers) was about ten times a bare server's whole request
 * (docs/performance.md, "History reads: what a read costs"). Nothing is decided here: the request's
 * checks and its page are `SessionHistories.lookup`'s, which the koa route calls too, on a koa
 * context of this request; its id, headers, log line and metrics come from the functions koa's
 * middleware calls. Only a hit is answered here; anything else (a refusal of any kind, a page not
 * kept or out of date, an error) goes to koa untouched, which answers it as it always has.
 */
export function cachedHistoryFirst(app: Koa, services: Services, histories: SessionHistories): FrontRoute {
  const route = API_PREFIX + SESSION_HISTORY_PATH;
  const answered = async (req: IncomingMessage, res: ServerResponse, encodedId: string): Promise<boolean> => {
    const started = process.hrtime.bigint();
    const ctx = app.createContext(req, res);
    // Decoded as the router decodes its parameters; a malformed one is koa's to refuse.
    let id: string;
    try {
      id = decodeURIComponent(encodedId);
    } catch {
      return false;
    }
    const asked = await histories.lookup(ctx, { id }).catch(() => undefined);
    if (asked?.cached === undefined) return false;
    (ctx as { _matchedRoute?: string })._matchedRoute = route;
    beginRequest(ctx, services.log);
    setSecurityHeaders(ctx);
    setApiCaching(ctx);
    sendEncodedJson(ctx, asked.cached);
    endRequest(ctx, started);
    res.end(asked.cached.bytes);
    return true;
  };
  return (req, res, koa) => {
    const match = req.method === 'GET' ? HISTORY.exec(req.url ?? '') : null;
    if (match === null) {
      void koa(req, res);
      return;
    }
    answered(req, res, match[1]!).then(
      (done) => done || void koa(req, res),
      () => void koa(req, res),
    );
  };
}
