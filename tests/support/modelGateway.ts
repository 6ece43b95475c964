import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatBody } from './mockOpenAI.ts';

/**
 * What the gateway does with a request: pass it on (its answer cut after some bytes, or held after
 * some bytes until `until` resolves, if asked), or answer it itself.
 */
export type GatewayAnswer = { pass: true; cutAfterBytes?: number; hold?: { afterBytes: number; until: Promise<void> } } | { status: number; headers?: Record<string, string>; body: unknown };

export interface ModelGateway {
  /** Base URL including `/v1`, as the product is configured with it. */
  url: string;
  close(): Promise<void>;
}

/**
 * The network between the product and its model service, as a test wants it: each request is read
 * whole and shown to `decide`, which passes it to the upstream model or answers it as a failing
 * provider would (a status, a cut stream).
 */
export async function startModelGateway(upstreamOrigin: string, decide: (request: ChatBody) => GatewayAnswer): Promise<ModelGateway> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let parsed: ChatBody = {};
      try {
        parsed = JSON.parse(body.toString('utf8')) as ChatBody;
      } catch {
        // Not JSON: the upstream answers it as it would.
      }
      const answer = decide(parsed);
      if (!('pass' in answer)) {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
        return;
      }
      const proxied = forward(new URL(req.url ?? '/', upstreamOrigin), { method: req.method, headers: req.headers }, (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        let sent = 0;
        let holding = answer.hold;
        // A client that goes away (a paused reply) ends the upstream answer too, held or not.
        res.once('close', () => upstream.destroy());
        upstream.on('data', (chunk: Buffer) => {
          if (answer.cutAfterBytes !== undefined && sent + chunk.length > answer.cutAfterBytes) {
            res.destroy();
            upstream.destroy();
            return;
          }
          if (holding && sent + chunk.length > holding.afterBytes) {
            upstream.pause();
            void holding.until.then(() => {
              if (res.destroyed) return;
              res.write(chunk);
              upstream.resume();
            });
            holding = undefined;
            sent += chunk.length;
            return;
          }
          sent += chunk.length;
          res.write(chunk);
        });
        upstream.on('end', () => res.end());
      });
      proxied.on('error', () => res.destroy());
      proxied.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Holds, once armed, the first model call that `matches` after `afterBytes` of its answer, until the
 * test releases it: a test that must act while an answer streams (pause a report being written)
 * cannot then be outrun by it on a loaded machine. `answer` is for the gateway's `decide`.
 */
export function heldCall(matches: (request: ChatBody) => boolean, afterBytes: number) {
  let armed: { until: Promise<void>; taken: boolean } | undefined;
  return {
    /** Arms the hold; returns the release, which also disarms it. */
    arm(): () => void {
      let release!: () => void;
      armed = { until: new Promise<void>((resolve) => (release = resolve)), taken: false };
      return () => {
        armed = undefined;
        release();
      };
    },
    answer(request: ChatBody): GatewayAnswer | undefined {
      if (!armed || armed.taken || !matches(request)) return undefined;
      armed.taken = true;
      return { pass: true, hold: { afterBytes, until: armed.until } };
    },
  };
}
