/**
 * The WebSocket layer over real loopback sockets (a `ws` server of the test's own): frames in order, a
 * refused upgrade as an `HttpError` with its `Retry-After`, frames past the limit, a drop, an upgrade
 * that never answers, the signal, and the headers. Both paths: `ws` (what Node 20 loads) and a standard
 * WebSocket class (undici's, as Node 22's global is), which shows no status.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as UndiciWebSocket } from 'undici';
import { WebSocketServer } from 'ws';
import { explain, HttpError, InvalidArgumentError, NetworkError, openSocket, reconnectDelay, ResponseTooLargeError, socketUrl, TimeoutError, type WebSocketConstructor } from '@x/client-core';
import { rejectionOf } from '@x-tools/test-helpers';

let server: Server;
let base: string;
const seen: IncomingMessage[] = [];
/** Resolves when the server sees the connection of a path (query included) closed. */
const serverClosed = new Map<string, Promise<void>>();
/** The upgraded (or never answered) connections, which closeAllConnections does not end. */
const upgraded = new Set<Duplex>();
beforeAll(async () => {
  const wss = new WebSocketServer({ noServer: true });
  server = createServer();
  server.on('upgrade', (req, socket, head) => {
    seen.push(req);
    upgraded.add(socket);
    socket.on('close', () => upgraded.delete(socket));
    const path = req.url ?? '';
    let closed!: () => void;
    serverClosed.set(path, new Promise<void>((resolve) => (closed = resolve)));
    if (path === '/busy') return socket.end('HTTP/1.1 429 Too Many Requests\r\nRetry-After: 2\r\nX-WebSocket-Reject-Reason: too many connections\r\nContent-Length: 0\r\n\r\n');
    if (path === '/silent') return; // never answers the upgrade
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('close', () => closed());
      if (path.startsWith('/big')) ws.send('x'.repeat(2_000));
      if (path === '/drop') ws.terminate();
      ws.on('message', (data) => ws.send(`echo ${String(data)}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  // Ended here, not when the process exits: the next test file of this worker runs in the same process.
  for (const socket of upgraded) socket.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const paths: [string, WebSocketConstructor | undefined][] = [['ws', undefined], ['a standard WebSocket', UndiciWebSocket as unknown as WebSocketConstructor]];

describe.each(paths)('openSocket (%s)', (_name, WebSocket) => {
  it('hands over text frames in order and closes quietly when asked', async () => {
    const got: string[] = [];
    const echoed = new Promise<void>((resolve) => {
      const onMessage = (text: string): void => {
        got.push(text);
        if (got.length === 2) resolve();
      };
      void openSocket({ url: `${base}/echo`, WebSocket, onMessage }).then((socket) => {
        socket.send('a');
        socket.send('b');
        void echoed.then(() => socket.close());
        void socket.closed.then((why) => got.push(`closed ${String(why)}`));
      });
    });
    await echoed;
    expect(got.slice(0, 2)).toEqual(['echo a', 'echo b']);
  });

  it('closes with ResponseTooLargeError on a frame past maxFrameBytes, and the connection with it', { timeout: 3_000 }, async () => {
    const path = `/big?standard=${String(WebSocket !== undefined)}`;
    const socket = await openSocket({ url: `${base}${path}`, WebSocket, maxFrameBytes: 1_000, onMessage: () => undefined });
    const why = await socket.closed;
    expect(why).toBeInstanceOf(ResponseTooLargeError);
    expect(why).toMatchObject({ code: 'RESPONSE_TOO_LARGE', limitBytes: 1_000 });
    // A standard WebSocket's close(1009) throws (it takes 1000 and 3000-4999): the connection stayed open.
    expect(serverClosed.has(path)).toBe(true);
    await serverClosed.get(path);
  });

  it('closes with NetworkError when the server drops the connection', async () => {
    const socket = await openSocket({ url: `${base}/drop`, WebSocket, onMessage: () => undefined });
    expect(await socket.closed).toBeInstanceOf(NetworkError);
  });

  it('rejects with TimeoutError when the upgrade is never answered', async () => {
    const err = await rejectionOf(openSocket({ url: `${base}/silent`, WebSocket, openTimeoutMs: 30, onMessage: () => undefined }));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ timeoutMs: 30 });
  });

  it('rejects with the signal\'s reason when aborted while opening', async () => {
    const controller = new AbortController();
    const opening = openSocket({ url: `${base}/silent`, WebSocket, signal: controller.signal, onMessage: () => undefined });
    controller.abort(new Error('stop'));
    expect(await rejectionOf(opening)).toMatchObject({ message: 'stop' });
  });

  it('sends the headers on the upgrade', async () => {
    const socket = await openSocket({ url: `${base}/echo?h=${String(WebSocket !== undefined)}`, WebSocket, headers: { authorization: 'Bearer t0k' }, onMessage: () => undefined });
    socket.close();
    expect(seen.at(-1)?.headers.authorization).toBe('Bearer t0k');
  });
});

describe('a refused upgrade', () => {
  it('is an HttpError with Retry-After and the reason where the status is visible (ws)', async () => {
    const err = await rejectionOf(openSocket({ url: `${base}/busy`, onMessage: () => undefined }));
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 429, retryAfterMs: 2_000 });
    expect((err as Error).message).toContain('too many connections');
    expect(reconnectDelay(1, err)).toBe(2_000);
  });

  it("waits a server's Retry-After up to a minute: a day's (or past a timer's range) is asked again after 60 s", () => {
    const refused = (retryAfterMs: number): HttpError => new HttpError({ status: 429, body: undefined, method: 'GET', url: 'ws://127.0.0.1/', headers: new Headers(), retryAfterMs });
    expect(reconnectDelay(1, refused(86_400_000))).toBe(60_000);
    expect(reconnectDelay(1, refused(2 ** 31))).toBe(60_000);
    expect(reconnectDelay(1, refused(45_000))).toBe(45_000);
  });

  it('is a NetworkError where the runtime shows no status (a standard WebSocket)', async () => {
    const err = await rejectionOf(openSocket({ url: `${base}/busy`, WebSocket: UndiciWebSocket as unknown as WebSocketConstructor, onMessage: () => undefined }));
    expect(err).toBeInstanceOf(NetworkError);
    // The short message; the browser's silence explained on demand.
    expect(explain(err)).toContain('a browser shows no reason');
    expect(reconnectDelay(3, err, { baseDelayMs: 100, random: () => 0.5 })).toBe(200);
  });
});

describe('which WebSocket', () => {
  it("in Node, the ws package over a global WebSocket that hides a refused upgrade's status (Node 22's)", async () => {
    const g = globalThis as { WebSocket?: unknown };
    const had = Object.getOwnPropertyDescriptor(g, 'WebSocket');
    g.WebSocket = UndiciWebSocket;
    try {
      const err = await rejectionOf(openSocket({ url: `${base}/busy`, onMessage: () => undefined }));
      expect(err).toBeInstanceOf(HttpError);
      expect(err).toMatchObject({ status: 429, retryAfterMs: 2_000 });
    } finally {
      if (had === undefined) delete g.WebSocket;
      else Object.defineProperty(g, 'WebSocket', had);
    }
  });
});

describe('socketUrl', () => {
  it.each(['https://x', 'not a url', 42])('refuses %s naming the option', (value) => {
    expect(() => socketUrl('webSocketUrl', value)).toThrow(InvalidArgumentError);
    expect(() => socketUrl('webSocketUrl', value)).toThrow(/'webSocketUrl'/);
  });
  it('takes ws: and wss:', () => expect(socketUrl('u', 'wss://h/p')).toBe('wss://h/p'));
});
