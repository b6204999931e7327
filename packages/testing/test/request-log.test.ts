/**
 * The request log is bounded (a stub that answers for hours must not grow without end): it keeps the
 * last `requestLogSize` requests (default DEFAULT_REQUEST_LOG_SIZE), oldest first, and
 * `DELETE /__stub/requests` empties it from outside the process, as `x-stub` users need.
 */
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeStubFetch, DEFAULT_REQUEST_LOG_SIZE, startNodeStub, startPriceStub, STUB_ACCOUNTS, type StubHandle } from '../src/index.ts';
import { nodeHandlers } from '../src/msw.ts';
import { stubCommand, withStubCommand } from './helpers.ts';

const A = STUB_ACCOUNTS.alice;
const started: StubHandle[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

/** `n` GETs in sequence, each with its own `i` (ignored by the stub), so that the log's order is visible in its urls. */
async function getMany(url: string, n: number, from = 0): Promise<void> {
  for (let i = from; i < from + n; i++) {
    const res = await fetch(`${url}/rpc/v2/accounts/${A}?i=${i}`);
    await res.arrayBuffer();
  }
}
/**
 * GETs `from` ... `to - 1` as `getMany` does, but `BATCH` at a time (each batch waits for the one before,
 * so a batch's requests all arrive after the earlier batches'): for the floods whose order within a
 * batch no check reads.
 */
const BATCH = 25;
async function getBatched(url: string, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, to - i) }, (_, k) => i + k);
    await Promise.all(batch.map(async (n) => (await fetch(`${url}/rpc/v2/accounts/${A}?i=${n}`)).arrayBuffer()));
  }
}
const indexes = (stub: { requests: Array<{ url: string }> }): number[] => stub.requests.map((r) => Number(new URL(r.url, 'http://x').searchParams.get('i')));

describe('the request log is bounded', () => {
  it('keeps exactly the last requestLogSize requests, newest last, over loopback', async () => {
    const stub = await startNodeStub({ requestLogSize: 5 });
    started.push(stub);
    await getMany(stub.url, 12);
    expect(indexes(stub)).toEqual([7, 8, 9, 10, 11]);
    await getMany(stub.url, 1, 12);
    expect(indexes(stub)).toEqual([8, 9, 10, 11, 12]);
  });

  it(`keeps the last ${DEFAULT_REQUEST_LOG_SIZE} by default`, async () => {
    expect(DEFAULT_REQUEST_LOG_SIZE).toBe(1000);
    const stub = await startNodeStub();
    started.push(stub);
    // 0 ... 36 (dropped), then 37 alone (the oldest kept), 38 ... 1035 in batches, 1036 alone (the newest).
    const last = DEFAULT_REQUEST_LOG_SIZE + 36;
    await getBatched(stub.url, 0, 37);
    await getMany(stub.url, 1, 37);
    await getBatched(stub.url, 38, last);
    await getMany(stub.url, 1, last);
    expect(stub.requests).toHaveLength(DEFAULT_REQUEST_LOG_SIZE);
    expect(indexes(stub)[0]).toBe(37);
    expect(indexes(stub).at(-1)).toBe(DEFAULT_REQUEST_LOG_SIZE + 36);
    // Exactly the last 1000 sent: none dropped that should be kept.
    expect([...indexes(stub)].sort((x, y) => x - y)).toEqual(Array.from({ length: DEFAULT_REQUEST_LOG_SIZE }, (_, i) => 37 + i));
  });

  it('is the same array throughout, as a held reference expects', async () => {
    const stub = await startNodeStub({ requestLogSize: 3 });
    started.push(stub);
    const log = stub.requests;
    await getMany(stub.url, 7);
    expect(stub.requests).toBe(log);
    expect(indexes(stub)).toEqual([4, 5, 6]);
  });

  it('holds nothing with requestLogSize 0', async () => {
    const stub = await startPriceStub({ requestLogSize: 0 });
    started.push(stub);
    await (await fetch(`${stub.url}/latest`)).arrayBuffer();
    expect(stub.requests).toEqual([]);
  });

  it('is bounded on the in-memory fetch and the MSW handlers too', async () => {
    const memory = createNodeStubFetch({ requestLogSize: 2 });
    for (let i = 0; i < 5; i++) await memory(`${memory.url}/rpc/v2/accounts/${A}?i=${i}`);
    expect(indexes(memory)).toEqual([3, 4]);

    const handlers = nodeHandlers({ requestLogSize: 2, baseUrl: 'http://msw.node.test' });
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      for (let i = 0; i < 5; i++) await fetch(`${handlers.url}/rpc/v2/accounts/${A}?i=${i}`);
      expect(indexes(handlers)).toEqual([3, 4]);
      expect(await (await fetch(`${handlers.url}/__stub/requests`, { method: 'DELETE' })).json()).toEqual({ cleared: 2 });
      expect(handlers.requests).toEqual([]);
    } finally {
      server.close();
    }
  });
});

describe('DELETE /__stub/requests', () => {
  it('empties the log over loopback, says how many it dropped, and is not logged itself', async () => {
    const stub = await startNodeStub({ requestLogSize: 4 });
    started.push(stub);
    await getMany(stub.url, 6);
    const res = await fetch(`${stub.url}/__stub/requests`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({ cleared: 4 });
    expect(stub.requests).toEqual([]);
    await getMany(stub.url, 1, 6);
    expect(indexes(stub)).toEqual([6]);
  });

  it('leaves the fault counters alone (reset() clears them)', async () => {
    const stub = await startPriceStub();
    started.push(stub);
    const faulted = { 'x-stub-fault': '503', 'x-stub-fault-times': '1', 'x-stub-fault-key': 'k' };
    expect((await fetch(`${stub.url}/latest`, { headers: faulted })).status).toBe(503);
    await fetch(`${stub.url}/__stub/requests`, { method: 'DELETE' });
    expect((await fetch(`${stub.url}/latest`, { headers: faulted })).status).toBe(200);
  });

  it('answers another method with 405 and Allow: DELETE, unlogged; a preflight as on any path', async () => {
    const stub = await startNodeStub();
    started.push(stub);
    const get = await fetch(`${stub.url}/__stub/requests`);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'DELETE']);
    expect(await get.json()).toMatchObject({ error: 'method_not_allowed' });
    expect(stub.requests).toEqual([]);
    const preflight = await fetch(`${stub.url}/__stub/requests`, { method: 'OPTIONS' });
    // The preflight allows the API's methods only (GET, and the node's POST reads), so a page of another origin cannot empty the log.
    expect([preflight.status, preflight.headers.get('access-control-allow-methods')]).toEqual([204, 'GET, POST']);
  });

  it('ignores fault headers: a control request is not an API request', async () => {
    const stub = await startNodeStub();
    started.push(stub);
    const res = await fetch(`${stub.url}/__stub/requests`, { method: 'DELETE', headers: { 'x-stub-fault': 'reset' } });
    expect(res.status).toBe(200);
  });
});

describe('x-stub', () => {
  const clear = async (url: string): Promise<unknown> => (await fetch(`${url}/__stub/requests`, { method: 'DELETE' })).json();

  it('--request-log-size bounds both stubs; DELETE /__stub/requests empties them', async () => {
    await withStubCommand(['--request-log-size', '3'], async ({ nodeUrl, priceUrl }) => {
      await getMany(nodeUrl, 5);
      for (let i = 0; i < 2; i++) await (await fetch(`${priceUrl}/latest`)).arrayBuffer();
      expect(await clear(nodeUrl)).toEqual({ cleared: 3 });
      expect(await clear(nodeUrl)).toEqual({ cleared: 0 });
      expect(await clear(priceUrl)).toEqual({ cleared: 2 });
    });
  });

  it(`keeps ${DEFAULT_REQUEST_LOG_SIZE} by default`, async () => {
    await withStubCommand([], async ({ nodeUrl }) => {
      await getBatched(nodeUrl, 0, DEFAULT_REQUEST_LOG_SIZE + 1);
      expect(await clear(nodeUrl)).toEqual({ cleared: DEFAULT_REQUEST_LOG_SIZE });
    });
  });

  it('documents both in --help', async () => {
    const { run, printed } = await stubCommand(['--help']);
    expect(run).toBe(0);
    expect(printed.out).toContain('--request-log-size');
    expect(printed.out).toContain('DELETE /__stub/requests');
  });

  it('refuses a --request-log-size that is not a count', async () => {
    const { run, printed } = await stubCommand(['--node-port', '0', '--price-port', '0', '--request-log-size', 'lots']);
    expect(run).toBe(1);
    expect(printed.err).toContain("--request-log-size must be a whole number of requests, got 'lots'");
  });
});
