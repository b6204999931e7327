/**
 * A loopback HTTP server of a bench row's own that answers each request after a delay, for the rows that
 * measure the network's shape (round trips, slow nodes). What it answers is the row's: `answer(url, n)`
 * gives the status, the body and the delay of request n (1-based since the last `reset`). A request the
 * client closes first is not answered, and counted in `aborted`; `close()` leaves no timer behind.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type DelayedAnswer = { status: number; body: Buffer; delayMs: number };

export type DelayedServer = {
  readonly url: string;
  /** Requests received since the last reset. */
  received(): number;
  /** Requests whose connection the client closed before the answer, in all. */
  aborted(): number;
  /** Counts from 0 again (which request is slow may depend on the count). */
  reset(): void;
  close(): Promise<void>;
};

export async function startDelayedServer(answer: (url: URL, n: number, method: string) => DelayedAnswer): Promise<DelayedServer> {
  const pending = new Set<NodeJS.Timeout>();
  let received = 0;
  let aborted = 0;
  const server = createServer((req, res) => {
    const { status, body, delayMs } = answer(new URL(req.url ?? '/', 'http://127.0.0.1'), ++received, req.method ?? 'GET');
    let answered = false;
    const timer = setTimeout(() => {
      pending.delete(timer);
      answered = true;
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    }, delayMs);
    pending.add(timer);
    res.once('close', () => {
      if (!answered) aborted++;
      clearTimeout(timer);
      pending.delete(timer);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    aborted: () => aborted,
    reset: () => {
      received = 0;
    },
    close: async () => {
      for (const t of pending) clearTimeout(t);
      pending.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
