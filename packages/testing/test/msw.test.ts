/**
 * `@x/testing/msw`: MSW 2 handlers answering from the stub engine. `setupServer` intercepts the global
 * fetch; a table of requests gets the same status, headers and body as from `createNodeStubFetch` /
 * `createPriceStubFetch` with the same seed; the real clients (no `fetch` option) run against it with
 * `failNext`, `requests`, `reset` and accounts of one's own.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { http, HttpResponse, RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNodeClient, HttpError, NetworkError } from '@x/node-client';
import { createPriceClient } from '@x/price-client';
import { canonicalAddress, createNodeStubFetch, createPriceStubFetch, DEFAULT_PRICE_NOW, NODE_STUB_URL, PRICE_STUB_URL, STUB_ACCOUNTS, StubArgumentError } from '../src/index.ts';
import { nodeHandlers, priceHandlers } from '../src/msw.ts';

const A = STUB_ACCOUNTS.alice;
const KEY = 'msw-key';
const node = nodeHandlers({ seed: 7 });
const live = nodeHandlers({ seed: 7, shapes: 'live', baseUrl: 'https://live.node.test' });
const prices = priceHandlers({ seed: 7, apiKey: KEY, now: () => DEFAULT_PRICE_NOW });
const server = setupServer(...node, ...live, ...prices);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  for (const stub of [node, live, prices]) stub.reset();
});
afterAll(() => server.close());

const headersOf = (r: Response): Record<string, string> => Object.fromEntries(r.headers);

type Case = { name: string; path: string; method?: string; headers?: Record<string, string> };
const NODE_CASES: Case[] = [
  { name: 'v2 account', path: `/rpc/v2/accounts/${A}` },
  { name: 'v1 account', path: `/rpc/v1/accounts/${A}` },
  { name: 'v1 account of an unknown address (null)', path: `/rpc/v1/accounts/${STUB_ACCOUNTS.unknown}` },
  { name: 'v2 transactions, ascending page', path: `/rpc/v2/accounts/${A}/transactions?count=7&start=3` },
  { name: 'v1 transactions, newest first', path: `/rpc/v1/accounts/${A}/transactions?count=4` },
  { name: 'v2 coin transactions, newest first', path: `/rpc/v2/accounts/${A}/coin_transactions?count=5` },
  { name: 'v1 coin transactions from a cursor', path: `/rpc/v1/accounts/${A}/coin_transactions?count=5&start=0` },
  { name: 'v2 transactions, live shapes by header', path: `/rpc/v2/accounts/${A}/transactions?count=2`, headers: { 'x-stub-shapes': 'live' } },
  { name: 'v1 modules, live shapes by header', path: '/rpc/v1/accounts/0x1/modules?count=3', headers: { 'x-stub-shapes': 'live' } },
  { name: 'v2 modules', path: '/rpc/v2/accounts/0x1/modules?count=2' },
  { name: 'v2 module by name', path: '/rpc/v2/accounts/0x1/modules/coin' },
  { name: 'v1 resources', path: `/rpc/v1/accounts/${A}/resources?count=2` },
  { name: 'v1 resource', path: `/rpc/v1/accounts/${A}/resources/0x1::account::Account` },
  { name: 'v2 resource', path: `/rpc/v2/accounts/${A}/resources/0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>` },
  { name: 'v3 account', path: `/rpc/v3/accounts/${A}` },
  { name: 'v3 transactions, descending from a start', path: `/rpc/v3/accounts/${A}/transactions?count=4&start=9` },
  { name: 'v3 coin transactions, ascending (x-supra-cursor)', path: `/rpc/v3/accounts/${A}/coin_transactions?count=5&start=0&ascending=true` },
  { name: 'v3 automated transactions (empty)', path: `/rpc/v3/accounts/${A}/automated_transactions` },
  { name: 'v3 modules, last page', path: '/rpc/v3/accounts/0x1/modules?count=50' },
  { name: 'v3 resource not found', path: '/rpc/v3/accounts/0x1/resources/0x1::nope::Nope' },
  { name: 'v3 bad ascending', path: `/rpc/v3/accounts/${A}/transactions?ascending=yes` },
  { name: '400: count over 100', path: `/rpc/v2/accounts/${A}/transactions?count=101` },
  { name: '400: malformed address', path: '/rpc/v2/accounts/0xzz' },
  { name: '404: v2 unknown account', path: `/rpc/v2/accounts/${STUB_ACCOUNTS.unknown}` },
  { name: '404: unknown path', path: '/rpc/v3/nothing' },
  { name: '404: the root', path: '/' },
  { name: '405: a method other than GET', path: `/rpc/v2/accounts/${A}`, method: 'DELETE' },
  { name: 'HEAD', path: `/rpc/v2/accounts/${A}`, method: 'HEAD' },
  { name: 'CORS preflight', path: `/rpc/v2/accounts/${A}`, method: 'OPTIONS' },
  { name: '503 fault', path: `/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': '503' } },
  { name: '429 fault with Retry-After', path: `/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': '429', 'x-stub-retry-after': '7' } },
  { name: 'html fault', path: `/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': 'html' } },
  { name: 'not-json fault', path: `/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': 'not-json', 'x-stub-content-type': 'text/plain' } },
  { name: 'bad fault request', path: `/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': 'flaky' } },
  { name: 'a manual redirect', path: `/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': '307', 'x-stub-redirect-to': '{url}?moved=1' } },
  { name: 'a slow answer', path: `/rpc/v2/accounts/${A}`, headers: { 'x-stub-fault': 'slow', 'x-stub-delay-ms': '20' } },
];

describe('the same answers as the in-memory stub of the same seed', () => {
  it.each(NODE_CASES)('node: $name', async ({ path, method = 'GET', headers = {} }) => {
    const memory = createNodeStubFetch({ seed: 7 });
    const init: RequestInit = { method, headers, redirect: 'manual' };
    const intercepted = await fetch(`${node.url}${path}`, init);
    const inMemory = await memory(`${memory.url}${path}`, init);
    expect(intercepted.status).toBe(inMemory.status);
    expect(headersOf(intercepted)).toEqual(headersOf(inMemory));
    expect(await intercepted.text()).toBe(await inMemory.text());
    expect(node.requests.map((r) => [r.method, r.url, r.operationId])).toEqual(memory.requests.map((r) => [r.method, r.url, r.operationId]));
  });

  it.each(NODE_CASES.filter((c) => c.method === undefined))('node, live shapes by option: $name', async ({ path, headers = {} }) => {
    const memory = createNodeStubFetch({ seed: 7, shapes: 'live' });
    const intercepted = await fetch(`${live.url}${path}`, { headers, redirect: 'manual' });
    const inMemory = await memory(`${memory.url}${path}`, { headers, redirect: 'manual' });
    expect([intercepted.status, headersOf(intercepted), await intercepted.text()]).toEqual([inMemory.status, headersOf(inMemory), await inMemory.text()]);
  });

  it.each<Case>([
    { name: 'history with the key', path: '/history?trading_pair=btc_usdt&startDate=1731974400000&endDate=1732003200000&interval=3600', headers: { 'x-api-key': KEY } },
    { name: 'history of a minute range', path: '/history?trading_pair=eth_btc&startDate=1732000000000&endDate=1732003600000&interval=60', headers: { 'x-api-key': KEY } },
    { name: 'history without a key (401)', path: '/history?trading_pair=btc_usdt&startDate=0&endDate=1&interval=60' },
    { name: 'history with a wrong key (403)', path: '/history?trading_pair=btc_usdt&startDate=0&endDate=1&interval=60', headers: { 'x-api-key': 'nope' } },
    { name: 'history with a key in the query only (401)', path: `/history?trading_pair=btc_usdt&startDate=0&endDate=1&interval=60&x-api-key=${KEY}` },
    { name: 'history of too many candles (400)', path: '/history?trading_pair=btc_usdt&startDate=0&endDate=1732003200000&interval=1', headers: { 'x-api-key': KEY } },
    { name: 'latest of one pair', path: '/latest?trading_pair=eth_usdt' },
    { name: 'latest of every pair', path: '/latest' },
    { name: 'unknown pair (404)', path: '/latest?trading_pair=abc_def' },
    { name: '500 fault', path: '/latest', headers: { 'x-stub-fault': '500' } },
  ])('price: $name', async ({ path, headers = {} }) => {
    const memory = createPriceStubFetch({ seed: 7, apiKey: KEY, now: () => DEFAULT_PRICE_NOW });
    const intercepted = await fetch(`${prices.url}${path}`, { headers });
    const inMemory = await memory(`${memory.url}${path}`, { headers });
    expect(intercepted.status).toBe(inMemory.status);
    expect(headersOf(intercepted)).toEqual(headersOf(inMemory));
    expect(await intercepted.text()).toBe(await inMemory.text());
    expect(prices.requests.map((r) => [r.url, r.operationId, r.headers['x-api-key']])).toEqual(
      memory.requests.map((r) => [r.url, r.operationId, r.headers['x-api-key']]),
    );
  });
});

describe('faults only a fetch shows', () => {
  it('reset: the fetch rejects with a TypeError, as on a dropped connection', async () => {
    await expect(fetch(`${node.url}/rpc/v2/accounts/${A}`, { headers: { 'x-stub-fault': 'reset' } })).rejects.toBeInstanceOf(TypeError);
  });

  it('truncated: the announced length, then the body errors half way', async () => {
    const r = await fetch(`${node.url}/rpc/v2/accounts/${A}`, { headers: { 'x-stub-fault': 'truncated' } });
    expect(r.status).toBe(200);
    await expect(r.text()).rejects.toBeInstanceOf(TypeError);
  });

  it('slow, then aborted: rejects with the reason at once', async () => {
    const controller = new AbortController();
    const reason = new Error('gave up');
    setTimeout(() => controller.abort(reason), 20);
    const started = performance.now();
    await expect(fetch(`${node.url}/rpc/v2/accounts/${A}`, { headers: { 'x-stub-fault': 'slow', 'x-stub-delay-ms': '60000' }, signal: controller.signal })).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('a redirect is answered, and followed by the caller: both hops reach the stub', async () => {
    const headers = { 'x-stub-fault': '307', 'x-stub-redirect-to': '{url}?moved=1', 'x-stub-fault-times': '1', 'x-stub-fault-key': 'k' };
    const r = await fetch(`${node.url}/rpc/v2/accounts/${A}`, { headers });
    expect([r.status, r.redirected, r.url]).toEqual([200, true, `${node.url}/rpc/v2/accounts/${A}?moved=1`]);
    expect(node.requests.map((q) => q.url)).toEqual([`/rpc/v2/accounts/${A}`, `/rpc/v2/accounts/${A}?moved=1`]);
  });
});

describe('the clients over the global fetch', () => {
  it('node: failNext with retries, then the account; requests name the operations', async () => {
    const client = createNodeClient({ baseUrl: node.url, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    node.failNext('getAccountV2', 503, 2, { retryAfter: '0' });
    expect((await client.v2.getAccount(STUB_ACCOUNTS.exactly101)).sequence_number).toBe(101);
    expect(node.requests.map((r) => r.operationId)).toEqual(['getAccountV2', 'getAccountV2', 'getAccountV2']);
  });

  it('node: reset empties requests and drops queued faults', async () => {
    const client = createNodeClient({ baseUrl: node.url, retry: false });
    node.failNext('getAccountV2', 500, 5);
    await expect(client.v2.getAccount(A)).rejects.toMatchObject({ name: 'HttpError', status: 500 });
    expect(node.requests).toHaveLength(1);
    node.reset();
    expect(node.requests).toHaveLength(0);
    expect((await client.v2.getAccount(A)).sequence_number).toBeGreaterThan(0);
    expect(node.requests).toHaveLength(1);
  });

  it('node: errors keep their classes (404 HttpError, a reset NetworkError, a 400 count)', async () => {
    const client = createNodeClient({ baseUrl: node.url, retry: false });
    await expect(client.v2.getAccount(STUB_ACCOUNTS.unknown)).rejects.toBeInstanceOf(HttpError);
    node.failNext('listTransactionsV2', 'reset');
    await expect(client.v2.listTransactions(A, { count: 2 })).rejects.toBeInstanceOf(NetworkError);
    expect(node.requests.map((r) => r.operationId)).toEqual(['getAccountV2', 'listTransactionsV2']);
  });

  it('node: a walk over both shapes gives the same transactions as the in-memory stub', async () => {
    for (const stub of [node, live]) {
      const memory = createNodeStubFetch({ seed: 7, shapes: stub.shapes });
      const hashes = async (client: ReturnType<typeof createNodeClient>): Promise<string[]> => {
        const out: string[] = [];
        for await (const tx of client.v1.transactions(STUB_ACCOUNTS.exactly101, { start: 0, pageSize: 25 })) out.push(tx.hash);
        return out;
      };
      const intercepted = await hashes(createNodeClient({ baseUrl: stub.url }));
      expect(intercepted).toHaveLength(101);
      expect(intercepted).toEqual(await hashes(createNodeClient({ baseUrl: memory.url, fetch: memory })));
    }
  });

  it('price: history and latest with the key, sent as a header; a wrong key is a 403', async () => {
    const client = createPriceClient({ baseUrl: prices.url, apiKey: KEY, retry: false });
    const candles = await client.history({ pair: 'btc_usdt', start: prices.now() - 86_400_000, end: prices.now(), resolution: 3600 });
    expect(candles).toHaveLength(24);
    const memory = createPriceStubFetch({ seed: 7, apiKey: KEY, now: () => DEFAULT_PRICE_NOW });
    const expected = await createPriceClient({ baseUrl: memory.url, apiKey: KEY, fetch: memory }).history({
      pair: 'btc_usdt',
      start: prices.now() - 86_400_000,
      end: prices.now(),
      resolution: 3600,
    });
    expect(candles).toEqual(expected);
    expect((await client.latest({ pair: 'eth_usdt' })).instruments.map((i) => i.currentPrice)).toEqual(
      (await memory(`${memory.url}/latest?trading_pair=eth_usdt`).then((r) => r.json() as Promise<{ instruments: Array<{ currentPrice: string }> }>)).instruments.map(
        (i) => i.currentPrice,
      ),
    );
    expect(prices.requests.map((r) => [r.operationId, r.headers['x-api-key']])).toEqual([
      ['getHistory', KEY],
      ['getLatest', KEY],
    ]);
    expect(prices.requests[0]?.url).not.toContain(KEY);
    const wrong = createPriceClient({ baseUrl: prices.url, apiKey: 'wrong', retry: false });
    await expect(wrong.history({ pair: 'btc_usdt', start: prices.now() - 3_600_000, end: prices.now(), resolution: 60 })).rejects.toMatchObject({ name: 'HttpError', status: 403 });
  });

  it('price: failNext 429 is retried', async () => {
    const client = createPriceClient({ baseUrl: prices.url, apiKey: KEY, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    prices.failNext('getHistory', 429, 1, { retryAfter: '0' });
    expect(await client.history({ pair: 'eth_usdt', start: prices.now() - 7_200_000, end: prices.now(), resolution: 3600 })).toHaveLength(2);
    expect(prices.requests.map((r) => r.operationId)).toEqual(['getHistory', 'getHistory']);
  });

  it('a handler of the test, put in front with server.use, overrides the stub for its route only', async () => {
    server.use(http.get(`${node.url}/rpc/v2/accounts/:address`, () => HttpResponse.json({ sequence_number: 9, authentication_key: '0x01' })));
    const client = createNodeClient({ baseUrl: node.url });
    expect((await client.v2.getAccount(A)).sequence_number).toBe(9);
    expect(node.requests).toHaveLength(0);
    expect((await client.v2.listTransactions(A, { count: 1 })).record).toHaveLength(1);
    expect(node.requests.map((r) => r.operationId)).toEqual(['listTransactionsV2']);
  });
});

describe('options', () => {
  it('accounts: accounts of ones own, by name, answered as by the other stubs', async () => {
    const accounts = {
      carol: { balance: 5_000_000_000n, transactions: [{ to: 'alice', amount: 2_500_000n }, { to: 'dave' }] },
      dave: { address: '0xda7e' },
    };
    const mine = nodeHandlers({ baseUrl: 'http://mine.node.test', accounts });
    server.use(...mine);
    const memory = createNodeStubFetch({ accounts });
    expect(mine.accounts.carol).toBe(memory.accounts.carol);
    expect(mine.accounts.dave).toBe(canonicalAddress('0xda7e'));

    const client = createNodeClient({ baseUrl: mine.url });
    expect((await client.v2.getAccount(mine.accounts.carol!)).sequence_number).toBe(2);
    const sent: string[] = [];
    for await (const tx of client.v2.coinTransactions(mine.accounts.dave!, { start: 0 })) {
      sent.push(typeof tx.header.sender === 'string' ? tx.header.sender : tx.header.sender.Move);
    }
    expect(sent).toEqual([mine.accounts.carol]);
    for (const path of [`/rpc/v2/accounts/${mine.accounts.carol}/transactions?start=0`, `/rpc/v1/accounts/${mine.accounts.dave}/resources`]) {
      const [a, b] = [await fetch(`${mine.url}${path}`), await memory(`${memory.url}${path}`)];
      expect([a.status, await a.text()]).toEqual([b.status, await b.text()]);
    }
  });

  it('baseUrl: only its origin counts; url is that origin; the defaults are the in-memory stubs', () => {
    expect(nodeHandlers({ baseUrl: 'https://rpc.example.test:8443/some/path/' }).url).toBe('https://rpc.example.test:8443');
    expect(nodeHandlers().url).toBe(NODE_STUB_URL);
    expect(priceHandlers().url).toBe(PRICE_STUB_URL);
  });

  it('a bad baseUrl is a StubArgumentError naming baseUrl', () => {
    for (const baseUrl of ['not a url', 'ftp://example.test', '/relative']) {
      expect(() => nodeHandlers({ baseUrl })).toThrow(StubArgumentError);
      expect(() => priceHandlers({ baseUrl })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', parameter: 'baseUrl' }));
    }
  });

  it('seed and the price options are those of the in-memory stubs', () => {
    const p = priceHandlers({ seed: 'demo', apiKey: 'k', now: () => 1_000 });
    const m = createPriceStubFetch({ seed: 'demo', apiKey: 'k', now: () => 1_000 });
    expect([p.seed, p.apiKey, p.pairs, p.now()]).toEqual([m.seed, m.apiKey, m.pairs, m.now()]);
    const n = nodeHandlers({ seed: 'demo', shapes: 'live' });
    expect([n.seed, n.shapes, n.accounts]).toEqual([createNodeStubFetch({ seed: 'demo' }).seed, 'live', STUB_ACCOUNTS]);
  });
});

describe('what nodeHandlers returns', () => {
  it('an array of MSW request handlers carrying the controls and the stub facts, and nothing else', () => {
    expect(Array.isArray(node)).toBe(true);
    expect(node).toHaveLength(1);
    expect(node.every((h) => h instanceof RequestHandler)).toBe(true);
    expect(Object.keys(node).sort()).toEqual(['0', 'accounts', 'chainId', 'failNext', 'now', 'oldestBlock', 'requests', 'reset', 'seed', 'shapes', 'stream', 'streamHandlers', 'url']);
    expect(Object.keys(prices).sort()).toEqual(['0', 'apiKey', 'failNext', 'now', 'pairs', 'requests', 'reset', 'seed', 'url']);
    // Spread, it is the handlers only.
    expect([...node]).toEqual([node[0]]);
  });

  it('failNext refuses an operation of the other stub, naming operationId', () => {
    // @ts-expect-error getHistory is a price operation
    expect(() => node.failNext('getHistory', 500)).toThrow(expect.objectContaining({ parameter: 'operationId' }));
  });

  it('two handler sets are two stubs: their requests and faults are their own', async () => {
    const other = nodeHandlers({ seed: 8, baseUrl: 'http://other.node.test' });
    server.use(...other);
    other.failNext('getAccountV2', 500);
    expect((await fetch(`${node.url}/rpc/v2/accounts/${A}`)).status).toBe(200);
    expect((await fetch(`${other.url}/rpc/v2/accounts/${A}`)).status).toBe(500);
    expect([node.requests.length, other.requests.length]).toEqual([1, 1]);
  });
});

describe('msw is needed by @x/testing/msw only', () => {
  const src = fileURLToPath(new URL('../src/', import.meta.url));

  it('no module of the package but src/msw*.ts (and the stream handlers it re-exports) imports msw', () => {
    const importers = (readdirSync(src, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts'))
      .filter((f) => /from '(msw)(\/[^']*)?'|import\('msw/.test(readFileSync(join(src, f), 'utf8')));
    expect(importers.sort()).toEqual(['msw.ts', 'node/ws-msw.ts', 'price/ws-msw.ts']);
  });

  it("without msw installed, @x/testing loads and @x/testing/msw fails naming the package 'msw'", async () => {
    // The sources in a folder whose node_modules has the package's dependencies but no msw, run by tsx.
    const dir = mkdtempSync(join(tmpdir(), 'x-testing-no-msw-'));
    try {
      cpSync(src, join(dir, 'src'), { recursive: true });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
      const require = createRequire(import.meta.url);
      const noble = dirname(require.resolve('@noble/hashes/sha2.js'));
      mkdirSync(join(dir, 'node_modules', '@noble'), { recursive: true });
      symlinkSync(noble, join(dir, 'node_modules', '@noble', 'hashes'));
      symlinkSync(dirname(require.resolve('ws/package.json')), join(dir, 'node_modules', 'ws'));
      // @x/common from its sources (tsx loads them), so the test needs no build.
      const common = join(dir, 'node_modules', '@x', 'common');
      mkdirSync(common, { recursive: true });
      writeFileSync(join(common, 'package.json'), JSON.stringify({ name: '@x/common', type: 'module', exports: './src/index.ts' }));
      symlinkSync(fileURLToPath(new URL('../../common/src/', import.meta.url)), join(common, 'src'));
      const tsx = pathToFileURL(require.resolve('tsx/esm')).href;
      const script = `
        const m = await import('./src/index.ts');
        const f = m.createNodeStubFetch();
        console.log('index', (await f(f.url + '/rpc/v2/accounts/0x1')).status);
        await import('./src/msw.ts').then(() => console.log('msw loaded'), (e) => console.log('msw', e.code, e.message));
      `;
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], { cwd: dir });
      expect(stdout).toContain('index 200');
      expect(stdout).toMatch(/msw ERR_MODULE_NOT_FOUND Cannot find package 'msw' imported from .*msw\.ts/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('README', () => {
  it('the setupWorker excerpt is in the browser test, verbatim', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const header = '```ts\n// tools/browser-tests/tests/msw.test.ts (excerpt)\n';
    const at = readme.indexOf(header);
    expect(at).toBeGreaterThan(-1);
    const excerpt = readme.slice(at + header.length, readme.indexOf('```', at + header.length));
    const browserTest = readFileSync(new URL('../../../tools/browser-tests/tests/msw.test.ts', import.meta.url), 'utf8');
    expect(excerpt.length).toBeGreaterThan(500);
    expect(browserTest).toContain(excerpt);
  });
});
