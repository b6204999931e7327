/**
 * The candle feed on loopback: WebSocket upgrades of the price stub's HTTP server, framed by the `ws`
 * package (no framing of ours). The upgrade must carry the stub's key in `x-api-key`, as the service
 * asks; a refused upgrade is answered with its HTTP status and a JSON body, as `/history` is.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { PriceFeed } from './ws-feed.ts';

/** Longest frame the loopback feed accepts from a client (`ws` closes the connection with 1009 beyond it). */
const MAX_PAYLOAD = 64 * 1024;

/** The upgrade handler of the price stub's server: serves `feed` to every upgrade with the key. */
export function feedUpgrade(feed: PriceFeed): { upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void; close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD });
  return {
    upgrade(req, socket, head) {
      const key = req.headers['x-api-key'];
      const refused = feed.authorize(Array.isArray(key) ? key[0] : key);
      if (refused !== undefined) {
        const body = JSON.stringify({ error: refused.message });
        socket.end(`HTTP/1.1 ${refused.status} ${refused.status === 401 ? 'Unauthorized' : 'Forbidden'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const peer = feed.accept({ send: (text) => ws.send(text), terminate: () => ws.terminate() }, req.url ?? '/');
        ws.on('message', (data, isBinary) => peer.message(isBinary ? '' : String(data)));
        ws.on('close', () => peer.closed());
        ws.on('error', () => ws.terminate());
      });
    },
    close() {
      feed.close();
      wss.close();
    },
  };
}
