/**
 * Malformed percent-encoding in the path or the query gets the same answer from every transport: the
 * loopback server, the in-memory fetch and the MSW handlers (MSW's own path matching used to throw
 * `URIError` on such a path, which MSW answers with a 500 of its own).
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeStubFetch, createPriceStubFetch, DEFAULT_PRICE_NOW, startNodeStub, startPriceStub, STUB_ACCOUNTS, type NodeStubHandle, type PriceStubHandle } from '../src/index.ts';
import { nodeHandlers, priceHandlers } from '../src/msw.ts';

const A = STUB_ACCOUNTS.alice;
const mswNode = nodeHandlers({ seed: 3, baseUrl: 'http://node.msw.test' });
const mswPrice = priceHandlers({ seed: 3, baseUrl: 'https://prices.msw.test', now: () => DEFAULT_PRICE_NOW });
const server = setupServer(...mswNode, ...mswPrice);
let loopNode: NodeStubHandle;
let loopPrice: PriceStubHandle;
const memNode = createNodeStubFetch({ seed: 3 });
const memPrice = createPriceStubFetch({ seed: 3, now: () => DEFAULT_PRICE_NOW });

beforeAll(async () => {
  loopNode = await startNodeStub({ seed: 3 });
  loopPrice = await startPriceStub({ seed: 3, now: () => DEFAULT_PRICE_NOW });
  // Requests to the loopback stubs pass through to the network; the MSW origins are answered by the handlers.
  server.listen({ onUnhandledRequest: 'bypass' });
});
afterAll(async () => {
  server.close();
  await Promise.all([loopNode.close(), loopPrice.close()]);
});

type Answer = { status: number; body: string };
const answer = async (res: Promise<Response>): Promise<Answer> => {
  const r = await res;
  return { status: r.status, body: await r.text() };
};
const TRANSPORTS = {
  node: {
    loopback: (path: string) => answer(fetch(`${loopNode.url}${path}`)),
    'in-memory': (path: string) => answer(memNode(`${memNode.url}${path}`)),
    msw: (path: string) => answer(fetch(`${mswNode.url}${path}`)),
  },
  price: {
    loopback: (path: string) => answer(fetch(`${loopPrice.url}${path}`, { headers: { 'x-api-key': loopPrice.apiKey } })),
    'in-memory': (path: string) => answer(memPrice(`${memPrice.url}${path}`, { headers: { 'x-api-key': memPrice.apiKey } })),
    msw: (path: string) => answer(fetch(`${mswPrice.url}${path}`, { headers: { 'x-api-key': mswPrice.apiKey } })),
  },
} as const;

const INVALID_PATH = { status: 400, error: 'invalid_path' };
const CASES: Array<{ stub: keyof typeof TRANSPORTS; path: string; expected: { status: number; error: string } }> = [
  { stub: 'node', path: '/rpc/v2/accounts/%E0%A4%A/transactions', expected: INVALID_PATH },
  { stub: 'node', path: '/rpc/v2/accounts/%zz', expected: INVALID_PATH },
  { stub: 'node', path: `/rpc/v2/accounts/${A}/resources/%`, expected: INVALID_PATH },
  { stub: 'node', path: '/rpc/v1/accounts/%C3', expected: INVALID_PATH },
  { stub: 'node', path: '/%', expected: INVALID_PATH },
  { stub: 'node', path: '/nowhere/%zz', expected: INVALID_PATH },
  { stub: 'node', path: `/rpc/v2/accounts/${A}/transactions?count=%zz`, expected: { status: 400, error: 'invalid_count' } },
  { stub: 'node', path: `/rpc/v2/accounts/${A}/transactions?count=%E0%A4%A`, expected: { status: 400, error: 'invalid_count' } },
  { stub: 'node', path: `/rpc/v2/accounts/${A}/modules?start=%`, expected: { status: 400, error: 'invalid_start' } },
  { stub: 'node', path: `/rpc/v2/accounts/${A}/transactions?%=1&count=1`, expected: { status: 200, error: '' } },
  // The price stub answers a path no route names, malformed or not, with its 404.
  { stub: 'price', path: '/latest%zz', expected: { status: 404, error: 'not_found' } },
  { stub: 'price', path: '/%E0%A4%A', expected: { status: 404, error: 'not_found' } },
  { stub: 'price', path: '/%', expected: { status: 404, error: 'not_found' } },
  { stub: 'price', path: '/latest?trading_pair=%zz', expected: { status: 400, error: 'invalid_parameter' } },
  { stub: 'price', path: '/history?trading_pair=btc_usdt&startDate=%&endDate=1&interval=60', expected: { status: 400, error: 'invalid_parameter' } },
];

describe('malformed percent-encoding: one answer from every transport', () => {
  it.each(CASES)('$stub $path', async ({ stub, path, expected }) => {
    const answers = Object.fromEntries(await Promise.all(Object.entries(TRANSPORTS[stub]).map(async ([name, get]) => [name, await get(path)] as const)));
    const loopback = answers.loopback as Answer;
    expect(loopback.status).toBe(expected.status);
    if (expected.error !== '') expect(JSON.parse(loopback.body)).toMatchObject({ error: expected.error });
    expect(answers).toEqual({ loopback, 'in-memory': loopback, msw: loopback });
  });
});
