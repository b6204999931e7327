/**
 * The loopback HTTP transport: a `node:http` server that carries out what the engine decides, and a
 * `close()` that ends every socket (slow requests included).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { answerHeaders, MAX_REQUEST_BODY_BYTES, type RequestBody, type StubEngine } from './engine.ts';
import { StubArgumentError } from './errors.ts';
import type { StubResponse } from './router.ts';
import type { Listening, ListenOptions } from './listen-options.ts';

/** Loopback addresses the stubs may bind to. Anything else is refused. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

function write(res: ServerResponse, r: StubResponse): void {
  const body = new TextEncoder().encode(r.body);
  res.writeHead(r.status, { ...answerHeaders(r), 'content-length': String(body.length) });
  res.end(body);
}

/** Methods whose requests carry no body the stubs read. */
const BODILESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Reads a request's body, at most `MAX_REQUEST_BODY_BYTES`: over that, it stops keeping what arrives and
 * settles at once with `tooLarge` (the rest is drained unread, so that the client can read the 413);
 * `undefined` when the client went away first.
 */
function readBody(req: IncomingMessage): Promise<RequestBody | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (body: RequestBody | undefined): void => {
      if (settled) return;
      settled = true;
      resolve(body);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > MAX_REQUEST_BODY_BYTES) {
        chunks.length = 0;
        settle({ tooLarge: true });
      } else chunks.push(chunk);
    });
    req.on('end', () => settle(new TextDecoder().decode(Buffer.concat(chunks))));
    req.on('error', () => settle(undefined));
    req.on('close', () => settle(undefined));
  });
}

/** Checks where a stub is asked to listen, naming the option at fault. */
export function checkListenOptions(options: ListenOptions): { port: number; host: string } {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK_HOSTS.has(host)) {
    throw new StubArgumentError('host', `stubs listen on loopback only (127.0.0.1, ::1, localhost), not '${host}'`);
  }
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new StubArgumentError('port', `must be an integer in 0..65535, got ${port}`);
  }
  return { port, host };
}

/** What a server does with an upgrade request (the node stub's WebSocket). */
export type Upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** Serves `engine` on loopback until `close()`; upgrades go to `upgrade` (none: the socket is closed). */
export async function listen(engine: StubEngine, options: ListenOptions, upgrade?: Upgrade): Promise<Listening> {
  const { port, host } = checkListenOptions(options);
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let closing = false;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const method = req.method ?? 'GET';
    if (BODILESS.has(method)) {
      answer(req, res, undefined);
      return;
    }
    void readBody(req).then((body) => {
      if (res.destroyed) return;
      // A body cut short: the connection closes after the 413, so that the unread rest is not taken for a next request.
      if (typeof body === 'object') res.shouldKeepAlive = false;
      answer(req, res, body ?? '');
    });
  };

  const answer = (req: IncomingMessage, res: ServerResponse, body: RequestBody | undefined): void => {
    const outcome = engine.dispatch(req.method ?? 'GET', req.url ?? '/', req.headers, body);
    switch (outcome.kind) {
      case 'preflight':
        res.writeHead(204, outcome.headers).end();
        return;
      case 'answer':
        write(res, outcome.response);
        return;
      case 'slow': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed && !closing) write(res, outcome.respond());
        }, outcome.delayMs);
        timers.add(timer);
        // The client gave up (abort/timeout): drop the pending answer.
        res.on('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
        });
        return;
      }
      case 'reset':
        req.socket.destroy();
        return;
      case 'truncated':
        res.writeHead(outcome.status, outcome.headers);
        // Half the body, then FIN: the client sees a premature end of the announced length.
        res.write(outcome.half, () => req.socket.end());
        return;
    }
  };

  const server = createServer(handle);
  server.on('upgrade', upgrade ?? ((_req: IncomingMessage, socket: Duplex) => socket.destroy()));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closed: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        closing = true;
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      });
      return closed;
    },
  };
}
