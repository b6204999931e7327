/**
 * Loopback servers for the tests of clients with several nodes (multi-node*, rate-limit, hedging): a
 * URL where nothing listens, and a node of the test's own whose every answer (status, body, headers,
 * delay) the test writes, that records when each request arrived, whether the client closed it before
 * the answer, and how many were open at once.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The base URL of a port nothing listens on: a server's, started and closed again. */
export async function deadUrl(path = ''): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}${path}`;
}

/** What a scripted node answers to one request. */
export type Answer = { status?: number; body?: unknown; headers?: Record<string, string>; delayMs?: number };

/** One request as a scripted node saw it. */
export type Seen = {
  url: string;
  /** performance.now() when it arrived. */
  at: number;
  /** The client closed it before the answer went out (an abort). */
  closedEarly: boolean;
  answered: boolean;
};

export type ScriptedNode = {
  readonly url: string;
  readonly seen: Seen[];
  /** Most requests open at once since the start (or the last `reset`). */
  readonly maxOpen: number;
  reset(): void;
  close(): Promise<void>;
};

/** An account body as `getAccount` answers it (v1 and v2 alike), with a sequence number that tells the nodes apart. */
export const accountBody = (sequenceNumber: number): unknown => ({ sequence_number: sequenceNumber, authentication_key: `0x${'ab'.repeat(32)}` });

/**
 * A v2 transactions page of an account of `total` transactions numbered 0 ... total - 1, as the node
 * answers `?start=&count=` (what a walk reads: hash, sender, sequence number).
 */
export function transactionsPage(url: URL, total: number): unknown {
  const start = Number(url.searchParams.get('start') ?? 0);
  const count = Number(url.searchParams.get('count') ?? 20);
  const record = [];
  for (let n = start; n < Math.min(start + count, total); n++) record.push({ hash: `0x${n.toString(16).padStart(64, '0')}`, header: { sender: '0x1', sequence_number: n } });
  return { record };
}

/**
 * Starts a node of the test's own on 127.0.0.1: `answer(url, index)` says what request number `index`
 * (0-based, per server) gets, after its `delayMs` (default at once). Close it in `afterAll`/`finally`.
 */
export async function startScriptedNode(answer: (url: URL, index: number, req: IncomingMessage) => Answer): Promise<ScriptedNode> {
  const seen: Seen[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let open = 0;
  let maxOpen = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const entry: Seen = { url: req.url ?? '/', at: performance.now(), closedEarly: false, answered: false };
    const index = seen.push(entry) - 1;
    maxOpen = Math.max(maxOpen, ++open);
    const a = answer(new URL(req.url ?? '/', 'http://node.test'), index, req);
    const send = (): void => {
      entry.answered = true;
      const text = a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...a.headers });
      res.end(text);
    };
    let timer: NodeJS.Timeout | undefined;
    res.once('close', () => {
      open--;
      if (!entry.answered) entry.closedEarly = true;
      if (timer) {
        clearTimeout(timer);
        timers.delete(timer);
      }
    });
    if (!a.delayMs) return send();
    timer = setTimeout(() => {
      timers.delete(timer!);
      timer = undefined;
      send();
    }, a.delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    get maxOpen() {
      return maxOpen;
    },
    reset() {
      seen.length = 0;
      maxOpen = open;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits until `check()` holds (polling every 10 ms), at most `ms`; returns whether it did. */
export async function until(check: () => boolean, ms = 2_000): Promise<boolean> {
  for (const end = performance.now() + ms; !check(); ) {
    if (performance.now() > end) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}
