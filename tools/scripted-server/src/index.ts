/**
 * A loopback server whose every answer a test writes itself, for behaviour the stubs never show
 * (cursors that cycle, redirects, servers echoing a key, empty bodies).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export type ScriptedServer = {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Stops listening and ends every open connection. */
  close(): Promise<void>;
};

/**
 * Starts a scripted server on 127.0.0.1 (port 0). Close it in the test's `finally` or `afterAll`.
 *
 * @example
 * ```ts
 * const server = await startScriptedServer((_req, res) => res.writeHead(302, { location: '/elsewhere' }).end());
 * try { ... } finally { await server.close(); }
 * ```
 */
export async function startScriptedServer(
  handler: (req: IncomingMessage, res: ServerResponse, context: { url: URL; origin: string }) => void,
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  let origin = '';
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: { ...req.headers } });
    handler(req, res, { url: new URL(req.url ?? '/', origin), origin });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A scripted server that never answers, recording per request whether its connection was closed
 * (nothing closes it but the client, until the server does): for tests of what a timeout or an abort
 * does to the request left behind.
 *
 * @example
 * ```ts
 * const server = await startSilentServer();
 * // ... a request times out ...
 * expect(server.closed).toEqual([true]); // the client aborted it
 * ```
 */
export async function startSilentServer(): Promise<ScriptedServer & { readonly closed: boolean[] }> {
  const closed: boolean[] = [];
  const server = await startScriptedServer((_req, res) => {
    const i = closed.push(false) - 1;
    res.on('close', () => {
      closed[i] = true;
    });
  });
  return { ...server, closed };
}
