/**
 * Walks end on any node: over servers of the test's own that lie in ways a walk could follow for ever, or
 * that send cursors which cannot go back as they came.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeClient, HistoryPrunedError, ResponseShapeError } from '@x/node-client';
import { collect, rejectionOf } from '@x-tools/test-helpers';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve()))))));

type Answer = (url: URL) => { status: number; body: unknown; headers?: Record<string, string> | undefined };

/** A node of the test's own: `answer` for every request, each request's URL kept. */
async function node(answer: Answer): Promise<{ url: string; requests: URL[] }> {
  const requests: URL[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://x');
    requests.push(url);
    const { status, body, headers } = answer(url);
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const block = (height: number) => ({ header: { height, hash: `0x${height.toString(16).padStart(64, '0')}` }, transactions: [] });

/** A node whose latest block is 1,000,000 and whose every 410 names an oldest block just above the height asked. */
const risingPrune: Answer = (url) => {
  if (url.pathname === '/rpc/v3/block') return { status: 200, body: block(1_000_000) };
  const height = Number(url.pathname.split('/').pop());
  return { status: 410, body: { message: 'pruned' }, headers: { 'x-supra-oldest-block': String(height + 1) } };
};

describe('a node whose pruning point rises with every request', () => {
  it('ends a walk from the default start at its first 410', async () => {
    const n = await node(risingPrune);
    const err = await rejectionOf(collect(createNodeClient({ baseUrl: n.url, retry: false }).v3.blocks({ concurrency: 4 })));
    expect(err).toBeInstanceOf(HistoryPrunedError);
    expect(n.requests.length).toBeLessThanOrEqual(5);
  });

  it("with history: 'kept', moves up at most twice, then is the error: a bounded number of requests", async () => {
    const a = await node(risingPrune);
    const b = await node(risingPrune);
    const err = await rejectionOf(collect(createNodeClient({ baseUrl: [a.url, b.url], retry: false }).v3.blocks({ history: 'kept', concurrency: 4 })));
    expect(err).toBeInstanceOf(HistoryPrunedError);
    expect(a.requests.length + b.requests.length).toBeLessThanOrEqual(30);
  });
});

describe('a node that sends more than asked', () => {
  const tx = (n: number) => ({ txn_type: 'user', hash: `0x${n.toString(16).padStart(64, '0')}`, header: { sequence_number: n } });
  it.each([
    ['transactions by sequence number', (c: ReturnType<typeof createNodeClient>) => c.v3.transactions('0x1', { pageSize: 10 })],
    ['coin transactions by cursor', (c: ReturnType<typeof createNodeClient>) => c.v3.coinTransactions('0x1', { pageSize: 10 })],
  ])('%s: a ResponseShapeError at the first page, not a walk of its surplus', async (_, walk) => {
    let next = 0;
    const n = await node((url) => {
      const count = Number(url.searchParams.get('count'));
      const page = Array.from({ length: count * 3 }, () => tx(next++));
      return { status: 200, body: page, headers: { 'x-supra-cursor': String(next) } };
    });
    const err = await rejectionOf(collect(walk(createNodeClient({ baseUrl: n.url, retry: false }))));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toMatchObject({ code: 'RESPONSE_SHAPE_ERROR', path: '' });
    expect((err as Error).message).toContain('at most the 10 items asked for, got 30');
    expect(n.requests).toHaveLength(1);
  });
});

describe('header cursors', () => {
  // Latin-1 as fetch hands a header's bytes over; they would go back in the URL as UTF-8, another cursor.
  it.each([['a byte above 0x7f', 'caf\u00e9'], ['a space', 'two words'], ['a tab', 'a\tb']])('with %s: a ResponseShapeError naming the header, not a cursor sent back changed', async (_, cursor) => {
    const n = await node(() => ({ status: 200, body: [{ bytecode: '0x00', abi: { name: 'm' } }], headers: { 'x-supra-cursor': cursor } }));
    const err = await rejectionOf(collect(createNodeClient({ baseUrl: n.url, retry: false }).v3.modules('0x1')));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toMatchObject({ path: 'header x-supra-cursor' });
    expect(n.requests).toHaveLength(1);
  });

  it('of printable ASCII go back byte for byte', async () => {
    const cursors = ['0x00ab', 'a~b!c$d%25e', '"quoted"', 'end'];
    const n = await node((url) => {
      const i = cursors.indexOf(url.searchParams.get('start') ?? '') + 1;
      return { status: 200, body: i < cursors.length + 1 ? [{ bytecode: '0x00', abi: { name: `m${i}` } }] : [], headers: i < cursors.length ? { 'x-supra-cursor': cursors[i]! } : undefined };
    });
    const modules = await collect(createNodeClient({ baseUrl: n.url, retry: false }).v3.modules('0x1'));
    expect(modules).toHaveLength(cursors.length + 1);
    expect(n.requests.slice(1).map((u) => u.searchParams.get('start'))).toEqual(cursors);
  });
});
