/**
 * The loopback servers of the HTTP benchmarks, run in a child process (`fork`) so that serving does not
 * share the event loop, and the core, of the client being measured:
 *
 * - the node stub of `@x/testing` (seed 1), which renders every body per request;
 * - a minimal `node:http` server answering only the URLs the benchmarks fetch with bodies rendered once,
 *   at start-up, by that stub: `getAccount` and every transactions page of the busy account, and a
 *   synthetic account with 10,000 transactions (100 full pages of 100 plus the empty page after them),
 *   made of the busy account's 2,500 records re-numbered (`header.sequence_number` 0..9999, `sender`
 *   the synthetic address). Any other URL is a 404, so a client that asked for something else fails.
 *
 * Protocol (IPC): the child sends one `ServersReady` message; it stops on the message `'close'` or
 * when the parent goes away.
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { startNodeStub, STUB_ACCOUNTS } from '@x/testing';

export type ServersReady = {
  type: 'ready';
  /** The node stub, rendering per request. */
  stubUrl: string;
  /** The pre-rendered server. */
  fastUrl: string;
  /** Address of the synthetic 10,000-transaction account (pre-rendered server only). */
  synthetic: string;
  /** Transactions of the synthetic account. */
  syntheticCount: number;
};

export const PAGE = 100;
export const SYNTHETIC = `0x${'5a'.repeat(32)}`;
export const SYNTHETIC_COUNT = 10_000;

/** The URL path (and query) the client sends for a v2 transactions page. */
export const txPagePath = (address: string, start: number): string =>
  `/rpc/v2/accounts/${address}/transactions?count=${PAGE}&start=${start}`;
export const accountPath = (address: string): string => `/rpc/v2/accounts/${address}`;

type Tx = { header: { sequence_number: number; sender: string } };

async function main(): Promise<void> {
  const stub = await startNodeStub({ port: 0, seed: 1 });
  const get = async (path: string): Promise<string> => {
    const res = await fetch(stub.url + path);
    if (!res.ok) throw new Error(`stub answered ${res.status} to ${path}`);
    return res.text();
  };
  const bodies = new Map<string, Buffer>();
  const busy = STUB_ACCOUNTS.busy;
  bodies.set(accountPath(busy), Buffer.from(await get(accountPath(busy))));
  const busyPages: Tx[][] = [];
  for (let start = 0; ; start += PAGE) {
    const text = await get(txPagePath(busy, start));
    bodies.set(txPagePath(busy, start), Buffer.from(text));
    const { record } = JSON.parse(text) as { record: Tx[] };
    if (record.length === 0) break;
    busyPages.push(record);
  }
  const records = busyPages.flat();
  for (let start = 0; start <= SYNTHETIC_COUNT; start += PAGE) {
    const page = [];
    for (let n = start; n < Math.min(start + PAGE, SYNTHETIC_COUNT); n++) {
      const tx = structuredClone(records[n % records.length]!);
      tx.header.sequence_number = n;
      tx.header.sender = SYNTHETIC;
      page.push(tx);
    }
    bodies.set(txPagePath(SYNTHETIC, start), Buffer.from(JSON.stringify({ record: page })));
  }
  bodies.set(accountPath(SYNTHETIC), Buffer.from(JSON.stringify({ sequence_number: SYNTHETIC_COUNT, authentication_key: SYNTHETIC })));
  stub.reset();

  const notFound = Buffer.from('{"error":"not_found","message":"not pre-rendered"}');
  const fast: Server = createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json', 'content-length': (body ?? notFound).length });
    res.end(body ?? notFound);
  });
  await new Promise<void>((resolve) => fast.listen(0, '127.0.0.1', resolve));
  const { port } = fast.address() as AddressInfo;

  let closing = false;
  const close = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    fast.closeAllConnections();
    await Promise.all([new Promise((resolve) => fast.close(resolve)), stub.close()]);
    process.exit(0);
  };
  // The stub's request log would grow with every request of the benchmarks.
  const trim = setInterval(() => stub.reset(), 1000);
  trim.unref();
  process.on('message', (m) => void (m === 'close' && close()));
  process.on('disconnect', () => void close());
  const ready: ServersReady = { type: 'ready', stubUrl: stub.url, fastUrl: `http://127.0.0.1:${port}`, synthetic: SYNTHETIC, syntheticCount: SYNTHETIC_COUNT };
  process.send!(ready);
}

// Run only as the forked child (the parent imports the constants above).
if (process.send && process.argv[2] === '--serve') {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
