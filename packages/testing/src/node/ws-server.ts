/**
 * The fake node's `/rpc/v4/ws` on loopback (Node only: the `ws` package's server, no framing of ours):
 * upgrades the feed accepts become connections of it; refused ones get their status and headers.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { createBlockFeed } from './ws-feed.ts';

const STATUS_TEXT: Record<number, string> = { 401: 'Unauthorized', 404: 'Not Found', 429: 'Too Many Requests', 503: 'Service Unavailable' };

/** The `upgrade` listener of a stub's server for `feed`. */
export function streamUpgrade(feed: ReturnType<typeof createBlockFeed>): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const server = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const refuse = (socket: Duplex, status: number, headers: Record<string, string>): void => {
    const lines = Object.entries({ ...headers, connection: 'close', 'content-length': '0' }).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Refused'}\r\n${lines.join('')}\r\n`);
  };
  return (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://stub').pathname !== '/rpc/v4/ws') return refuse(socket, 404, {});
    const verdict = feed.upgrade(req.headers.authorization);
    if (!verdict.accept) return refuse(socket, verdict.status, verdict.headers);
    server.handleUpgrade(req, socket, head, (ws) => {
      const session = feed.connect({ send: (text) => ws.send(text), close: () => ws.terminate() });
      ws.on('message', (data) => session.receive(String(data)));
      ws.on('close', () => session.closed());
      ws.on('error', () => ws.terminate());
    });
  };
}
