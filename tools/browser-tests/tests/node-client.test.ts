/**
 * The node client as a dApp ships it: imported by name (the built package), in Chromium, on a page of
 * another origin than the stub, under `Content-Security-Policy: script-src 'self'`.
 */
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { commands } from 'vitest/browser';
import { ClientError, createNodeClient, explain, HttpError, NetworkError, TimeoutError, type NodeClient, type NodeClientOptions } from '@x/node-client';
import { createPriceClient } from '@x/price-client';
import { createResponseValidator } from '@x/validators';
import { rejection } from './helpers.ts';

const nodeUrl = inject('nodeUrl');
const accounts = inject('accounts');
const facts = inject('facts');
const { alice, busy, publisher, framework, unknown } = accounts;
const COIN_STORE = '0x1::coin::CoinStore<0x1::supra_coin::SupraCoin>';

const client = (options: NodeClientOptions = {}): NodeClient =>
  createNodeClient({ baseUrl: nodeUrl, retry: false, validator: createResponseValidator({ strict: true }), ...options });

beforeEach(async () => {
  await commands.resetStub('node');
});

const gets = async (): Promise<{ method: string; url: string }[]> =>
  (await commands.stubRequests('node')).filter((r) => r.method === 'GET');

describe('the page', () => {
  it('is on another origin than the stub', () => {
    expect(location.origin).not.toBe(new URL(nodeUrl).origin);
  });

  it('runs under a CSP that forbids eval and new Function', () => {
    expect(() => eval('1 + 1')).toThrow(EvalError);
    expect(() => new Function('return 1')).toThrow(EvalError);
  });
});

describe('every operation, validated strictly', () => {
  it.each([
    ['getAccountV1', (n: NodeClient) => n.v1.getAccount(alice), (b: { sequence_number: number }) => expect(b.sequence_number).toBe(facts.alice.sent)],
    ['getAccountV2', (n: NodeClient) => n.v2.getAccount(alice), (b: { sequence_number: number }) => expect(b.sequence_number).toBe(facts.alice.sent)],
    ['listTransactionsV1', (n: NodeClient) => n.v1.listTransactions(alice, { count: 5, start: 10 }), (b: { record: { header: { sequence_number: number } }[] }) =>
      expect(b.record.map((t) => t.header.sequence_number)).toEqual([10, 11, 12, 13, 14])],
    ['listTransactionsV2', (n: NodeClient) => n.v2.listTransactions(alice, { count: 3 }), (b: { record: { header: { sequence_number: number } }[] }) =>
      expect(b.record.map((t) => t.header.sequence_number)).toEqual([149, 148, 147])],
    ['listCoinTransactionsV1', (n: NodeClient) => n.v1.listCoinTransactions(alice, { count: 4, start: 0 }), (b: { record: unknown[] }) => expect(b.record).toHaveLength(4)],
    ['listCoinTransactionsV2', (n: NodeClient) => n.v2.listCoinTransactions(alice, { count: 4, start: 0n }), (b: { record: unknown[] }) => expect(b.record).toHaveLength(4)],
    ['listModulesV1', (n: NodeClient) => n.v1.listModules(publisher, { count: 3 }), (b: unknown) => expect(JSON.stringify(b)).toContain('Modules')],
    ['listModulesV2', (n: NodeClient) => n.v2.listModules(publisher, { count: 3 }), (b: { modules: unknown[] }) => expect(b.modules).toHaveLength(3)],
    ['getModuleV1', (n: NodeClient) => n.v1.getModule(framework, 'coin'), (b: unknown) => expect(b).not.toBeNull()],
    ['getModuleV2', (n: NodeClient) => n.v2.getModule(framework, 'coin'), (b: unknown) => expect(b).not.toBeNull()],
    ['listResourcesV1', (n: NodeClient) => n.v1.listResources(alice, { count: 2 }), (b: unknown) => expect(JSON.stringify(b)).toContain('Resources')],
    ['listResourcesV2', (n: NodeClient) => n.v2.listResources(alice, { count: 2 }), (b: { resources: unknown[] }) => expect(b.resources).toHaveLength(2)],
    ['getResourceV1', (n: NodeClient) => n.v1.getResource(alice, COIN_STORE), (b: unknown) => expect(b).not.toBeNull()],
    ['getResourceV2', (n: NodeClient) => n.v2.getResource(alice, COIN_STORE), (b: unknown) => expect(b).not.toBeNull()],
  ] as Array<[string, (n: NodeClient) => Promise<unknown>, (body: never) => void]>)('%s', async (_op, call, check) => {
    check((await call(client())) as never);
    expect(await gets()).toHaveLength(1);
  });

  it('v1 answers null for an unknown account', async () => {
    expect(await client().v1.getAccount(unknown)).toBeNull();
  });
});

describe('iterators across pages', () => {
  it(`transactions: all ${facts.busy.sent} of busy, in order, 25 pages`, async () => {
    const seen: number[] = [];
    for await (const tx of client().v2.transactions(busy, { start: 0 })) seen.push(tx.header.sequence_number);
    expect(seen).toEqual(Array.from({ length: facts.busy.sent }, (_, i) => i));
    expect(await gets()).toHaveLength(Math.ceil(facts.busy.sent / 100) + 1);
  });

  it('v1 transactions with a small page size', async () => {
    let n = 0;
    for await (const tx of client().v1.transactions(alice, { start: 0, pageSize: 40 })) expect(tx.header.sequence_number).toBe(n++);
    expect(n).toBe(facts.alice.sent);
  });

  it.each(['v1', 'v2'] as const)('%s coinTransactions: every one of alice, no repeats', async (v) => {
    const hashes = new Set<string>();
    for await (const tx of client()[v].coinTransactions(alice, { start: 0 })) hashes.add(tx.hash);
    expect(hashes.size).toBe(facts.alice.coinTransactions);
  });

  it.each(['v1', 'v2'] as const)('%s modules and resources of publisher, pages of 7', async (v) => {
    let modules = 0;
    for await (const _ of client()[v].modules(publisher, { pageSize: 7 })) modules++;
    let resources = 0;
    for await (const _ of client()[v].resources(publisher, { pageSize: 7 })) resources++;
    expect([modules, resources]).toEqual([facts.publisher.modules, facts.publisher.resources]);
  });
});

describe('errors', () => {
  it('an HTTP error has its class, code, status and body', async () => {
    const err = await rejection(client().v2.getAccount(unknown));
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toBeInstanceOf(ClientError);
    expect(err).toMatchObject({ name: 'HttpError', code: 'HTTP_ERROR', status: 404, body: { error: 'account_not_found' } });
  });

  it('a 500 on demand', async () => {
    const err = await rejection(client({ headers: { 'x-stub-fault': '500' } }).v2.getAccount(alice));
    expect(err).toMatchObject({ name: 'HttpError', code: 'HTTP_ERROR', status: 500 });
  });

  it('a CORS rejection is a NetworkError whose explain() says a CORS rejection looks the same', async () => {
    // The stub's preflight does not allow this header, so the browser refuses the request.
    const err = await rejection(client({ headers: { 'x-not-allowed': '1' } }).v2.getAccount(alice));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ name: 'NetworkError', code: 'NETWORK_ERROR' });
    expect((err as Error).message).toContain('Failed to fetch');
    expect(explain(err)).toMatch(/CORS rejection looks the same/);
    expect(await gets()).toHaveLength(0); // only the refused preflight reached the stub
  });

  it('a reset connection is a NetworkError too, retried', async () => {
    const err = await rejection(client({ headers: { 'x-stub-fault': 'reset' }, retry: { attempts: 2, baseDelayMs: 1 } }).v2.getAccount(alice));
    expect(err).toMatchObject({ name: 'NetworkError', code: 'NETWORK_ERROR' });
    // Chromium itself may resend a request whose connection was reset before any byte came back.
    expect((await gets()).length).toBeGreaterThanOrEqual(2);
  });
});

describe('timeouts, aborts and retries', () => {
  it('a timeout followed by a successful retry', async () => {
    const node = client({
      timeoutMs: 1_000, // long enough for the retry on a loaded machine (the first attempt waits 5 s)
      retry: { attempts: 2, baseDelayMs: 1 },
      headers: { 'x-stub-fault': 'slow', 'x-stub-delay-ms': '5000', 'x-stub-fault-times': '1' },
    });
    const t0 = performance.now();
    expect((await node.v2.getAccount(alice)).sequence_number).toBe(facts.alice.sent);
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(await gets()).toHaveLength(2);
  });

  it('a timeout without retries is a TimeoutError, at once', async () => {
    const t0 = performance.now();
    const err = await rejection(client({ timeoutMs: 200, headers: { 'x-stub-fault': 'slow', 'x-stub-delay-ms': '5000' } }).v2.getAccount(alice));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ name: 'TimeoutError', code: 'TIMEOUT', timeoutMs: 200 });
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('abort without a reason rejects with the AbortError of the signal', async () => {
    const controller = new AbortController();
    const call = client({ headers: { 'x-stub-fault': 'slow' } }).v2.getAccount(alice, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const err = await rejection(call);
    expect(err).toBeInstanceOf(DOMException);
    expect(err).toMatchObject({ name: 'AbortError' });
    expect(err).toBe(controller.signal.reason);
  });

  it('abort with a reason rejects with that reason', async () => {
    const controller = new AbortController();
    const reason = new Error('user left the page');
    const call = client({ headers: { 'x-stub-fault': 'slow' } }).v2.getAccount(alice, { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);
    expect(await rejection(call)).toBe(reason);
  });

  it('an abort stops an iterator between pages', async () => {
    const controller = new AbortController();
    const reason = new Error('enough');
    let n = 0;
    const err = await rejection(
      (async () => {
        for await (const _ of client().v2.transactions(busy, { start: 0, signal: controller.signal })) if (++n === 150) controller.abort(reason);
      })(),
    );
    expect(err).toBe(reason);
    expect(n).toBe(150);
  });

  it('503 then success', async () => {
    const node = client({ retry: { attempts: 3, baseDelayMs: 1 }, headers: { 'x-stub-fault': '503', 'x-stub-retry-after': '0', 'x-stub-fault-times': '1' } });
    expect((await node.v2.getAccount(alice)).sequence_number).toBe(facts.alice.sent);
    expect(await gets()).toHaveLength(2);
  });

  it('503 until the retries are used up', async () => {
    const node = client({ retry: { attempts: 3, baseDelayMs: 1 }, headers: { 'x-stub-fault': '503', 'x-stub-retry-after': '0' } });
    expect(await rejection(node.v2.getAccount(alice))).toMatchObject({ name: 'HttpError', status: 503 });
    expect(await gets()).toHaveLength(3);
  });

  it('Retry-After is honoured (the stub exposes it)', async () => {
    const node = client({ retry: { attempts: 2, baseDelayMs: 1 }, headers: { 'x-stub-fault': '503', 'x-stub-retry-after': '1', 'x-stub-fault-times': '1' } });
    const t0 = performance.now();
    await node.v2.getAccount(alice);
    // 1 s as the server said, not the 1 ms backoff: the header was readable cross-origin.
    expect(performance.now() - t0).toBeGreaterThanOrEqual(950);
  });

  it('a Retry-After longer than the retry policy allows ends the retries with the error', async () => {
    const node = client({ retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 500 }, headers: { 'x-stub-fault': '503', 'x-stub-retry-after': '30' } });
    expect(await rejection(node.v2.getAccount(alice))).toMatchObject({ status: 503 });
    expect(await gets()).toHaveLength(1);
  });
});

describe('a same-origin proxy (issue 37.12)', () => {
  it('a path is the page\'s own origin, for the node client and the price client', () => {
    expect(createNodeClient({ baseUrl: '/rpc-proxy/' }).baseUrls).toEqual([`${location.origin}/rpc-proxy`]);
    expect(() => createPriceClient({ baseUrl: '/prices', apiKey: 'k' })).not.toThrow();
    // A protocol-relative URL is another host: refused, not read as a path.
    expect(() => createNodeClient({ baseUrl: '//evil.example' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', parameter: 'baseUrl' }));
  });
});
