/**
 * The fake node's `/rpc/v4/ws` as an MSW 2 WebSocket handler (`ws.link`), fed by the same feed (and so
 * the same engine and clock) as the node handlers' REST: a pushed block is the REST block of its height.
 * In a page (`setupWorker`) or wherever the runtime has a global `WebSocket` MSW can intercept. A page
 * shows no upgrade status, so a refused upgrade (`refuseNext`, `disabled`, `token`) is a close instead:
 * 1013 (try again later) for a 429 or 503, 1008 (policy) for the rest.
 */
import { ws, type WebSocketHandler } from 'msw';
import type { createBlockFeed } from './ws-feed.ts';

/** The handler of `ws(s)://<origin>/rpc/v4/ws` for `origin` (an http(s) origin), served by `feed`. */
export function nodeStreamHandler(feed: ReturnType<typeof createBlockFeed>, origin: string): WebSocketHandler {
  return ws.link(`${origin.replace(/^http/, 'ws')}/rpc/v4/ws`).addEventListener('connection', ({ client }) => {
    // A page sends no Authorization header on an upgrade: a node asking for a token refuses it, as it would.
    const verdict = feed.upgrade(undefined);
    if (!verdict.accept) return client.close(verdict.status === 429 || verdict.status === 503 ? 1013 : 1008, `${verdict.status} ${verdict.headers['x-websocket-reject-reason'] ?? ''}`.trim());
    // 1006: an abnormal closure, as a dropped connection reads (MSW lets a handler send it).
    const session = feed.connect({ send: (text) => client.send(text), close: () => client.close(1006) });
    client.addEventListener('message', (event) => session.receive(typeof event.data === 'string' ? event.data : ''));
    client.addEventListener('close', () => session.closed());
  });
}
