import { describe, expect, it } from 'vitest';
import { DEFAULT_SLOW_DELAY_MS, STUB_ACCOUNTS, type StubHandle } from '../src/index.ts';
import { useFakeTime, useNodeStub, usePriceStub } from '@x-tools/test-helpers';
import { get, SEED } from './helpers.ts';

const node = useNodeStub(SEED);
const price = usePriceStub({ seed: SEED });
/** The `slow` fault's delays run on fake time: a test moves time on once its slow request has arrived. */
const time = useFakeTime();

/** One ordinary request per stub: the faults work the same on both. */
const TARGETS: Array<[string, () => StubHandle, string, Record<string, string>]> = [
  ['node', () => node.stub, `/rpc/v2/accounts/${STUB_ACCOUNTS.busy}/transactions?count=3`, {}],
  ['price', () => price.stub, '/history?trading_pair=btc_usdt&startDate=1731974400000&endDate=1731988800000&interval=3600', { 'x-api-key': 'test-key' }],
];

/** The operation of a target's path, typed loosely: a StubHandle takes either stub's ids. */
const operationOf = (path: string): never => (path.startsWith('/rpc') ? 'listTransactionsV2' : 'getHistory') as never;

describe.each(TARGETS)('faults on the %s stub', (_name, stubOf, path, baseHeaders) => {
  const call = (headers: Record<string, string>, p = path) =>
    fetch(`${stubOf().url}${p}`, { headers: { ...baseHeaders, ...headers } });
  /** How many requests with the `slow` fault the stub has received. */
  const slowOnes = (): number => stubOf().requests.filter((r) => r.headers['x-stub-fault'] === 'slow').length;
  /**
   * The answer of a request with the `slow` fault, sent on fake time: once it has reached the stub, time
   * moves on to a ms before `delayMs` (no answer yet), then to `delayMs` (the answer).
   */
  const slowCall = async (headers: Record<string, string>, delayMs: number): Promise<Response> => {
    const before = slowOnes();
    let answered = false;
    const pending = call({ 'x-stub-fault': 'slow', ...headers }).finally(() => (answered = true));
    await time.waitFor(() => slowOnes() === before + 1, 'the slow request');
    await time.advance(delayMs - 1);
    await time.realPause(20); // time for an early answer to arrive
    expect(answered, `answered before ${delayMs} ms`).toBe(false);
    await time.advance(1);
    return time.settles(pending, 'the slow answer');
  };

  it.each([
    ['500', 500, null],
    ['503', 503, '1'],
    ['429', 429, '1'],
    ['502', 502, null],
    ['404', 404, null],
  ] as const)('x-stub-fault: %s answers that status with a JSON body', async (fault, status, retryAfter) => {
    const r = await call({ 'x-stub-fault': fault });
    expect(r.status).toBe(status);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.headers.get('retry-after')).toBe(retryAfter);
    expect(await r.json()).toMatchObject({ error: 'stub_fault' });
  });

  it.each([
    ['seconds', '7'],
    ['an HTTP date', 'Wed, 21 Oct 2015 07:28:00 GMT'],
    ['zero', '0'],
  ])('x-stub-retry-after chooses the Retry-After value (%s)', async (_label, value) => {
    for (const fault of ['503', '429']) {
      const r = await call({ 'x-stub-fault': fault, 'x-stub-retry-after': value });
      expect(r.headers.get('retry-after')).toBe(value);
    }
  });

  it('failNext with a redirect status answers it with redirectTo as Location, whatever the headers, then answers normally', async () => {
    const stub = stubOf();
    stub.failNext(operationOf(path), 307, 1, { redirectTo: '{url}&moved=1' });
    const r = await fetch(`${stub.url}${path}`, { redirect: 'manual' });
    expect(r.status).toBe(307);
    expect(r.headers.get('location')).toBe(`${path}&moved=1`);
    expect((await call({}, path)).status).toBe(200);
  });

  it.each([[307, {}], [302, { redirectTo: ' ' }]] as const)('failNext(%s) without redirectTo is a StubArgumentError', (status, options) => {
    expect(() => stubOf().failNext(operationOf(path), status, 1, options)).toThrow(/redirectTo/);
  });

  it('slow delays the normal answer by x-stub-delay-ms', async () => {
    const normal = await (await call({})).text();
    time.start();
    const t0 = performance.now();
    const r = await slowCall({ 'x-stub-delay-ms': '300' }, 300);
    expect(await r.text()).toBe(normal);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it(`slow waits ${DEFAULT_SLOW_DELAY_MS} ms by default, and a client abort ends it early`, async () => {
    time.start();
    const t0 = performance.now();
    expect((await slowCall({}, DEFAULT_SLOW_DELAY_MS)).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(DEFAULT_SLOW_DELAY_MS - 10);
    // The abort is on the real clock (AbortSignal.timeout), 50 ms: the stub, on fake time, never answers by itself.
    await expect(
      fetch(`${stubOf().url}${path}`, { headers: { ...baseHeaders, 'x-stub-fault': 'slow' }, signal: AbortSignal.timeout(50) }),
    ).rejects.toThrow();
    // The stub still answers.
    expect((await call({})).status).toBe(200);
  });

  it('reset destroys the connection before any byte', async () => {
    await expect(call({ 'x-stub-fault': 'reset' })).rejects.toThrow(TypeError);
  });

  it('truncated announces more bytes than it sends, then closes', async () => {
    const r = await call({ 'x-stub-fault': 'truncated' });
    expect(r.status).toBe(200);
    const full = await (await call({})).text();
    expect(Number(r.headers.get('content-length'))).toBeGreaterThan(Buffer.byteLength(full));
    await expect(r.text()).rejects.toThrow();
  });

  it('html answers a 502 HTML page', async () => {
    const r = await call({ 'x-stub-fault': 'html' });
    expect(r.status).toBe(502);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const text = await r.text();
    expect(text).toContain('<html>');
    expect(() => JSON.parse(text) as unknown).toThrow();
  });

  it('not-json answers 200 with a body that is not JSON (content type application/json unless chosen)', async () => {
    const r = await call({ 'x-stub-fault': 'not-json' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    await expect(r.json()).rejects.toThrow(SyntaxError);
    const plain = await call({ 'x-stub-fault': 'not-json', 'x-stub-content-type': 'text/plain' });
    expect(plain.headers.get('content-type')).toBe('text/plain');
  });

  it('x-stub-fault-times: the fault hits the first N attempts of the same request, then it succeeds', async () => {
    stubOf().reset();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call({ 'x-stub-fault': '503', 'x-stub-fault-times': '2' })).status);
    expect(statuses).toEqual([503, 503, 200, 200]);
    // Another path (or query) has its own counter.
    const other = `${path}&other=1`;
    expect((await call({ 'x-stub-fault': '503', 'x-stub-fault-times': '2' }, other)).status).toBe(503);
    // reset() forgets the counters.
    stubOf().reset();
    expect((await call({ 'x-stub-fault': '503', 'x-stub-fault-times': '2' })).status).toBe(503);
  });

  it('x-stub-fault-times works with every kind (reset twice, then an answer)', async () => {
    stubOf().reset();
    const headers = { 'x-stub-fault': 'reset', 'x-stub-fault-times': '2' };
    await expect(call(headers)).rejects.toThrow();
    await expect(call(headers)).rejects.toThrow();
    expect((await call(headers)).status).toBe(200);
  });

  it('x-stub-fault-key counts attempts across requests sharing the key', async () => {
    stubOf().reset();
    const key = { 'x-stub-fault': '429', 'x-stub-fault-times': '1', 'x-stub-fault-key': 'k-1' };
    expect((await call(key)).status).toBe(429);
    expect((await call(key, `${path}&page=2`)).status).toBe(200);
    expect((await call({ ...key, 'x-stub-fault-key': 'k-2' }, `${path}&page=2`)).status).toBe(429);
  });

  it.each([
    ['an unknown fault', { 'x-stub-fault': 'explode' }],
    ['a 2xx status as fault', { 'x-stub-fault': '200' }],
    ['a malformed fault-times', { 'x-stub-fault': '500', 'x-stub-fault-times': '0' }],
    ['a malformed delay', { 'x-stub-fault': 'slow', 'x-stub-delay-ms': 'soon' }],
  ])('%s is a 400 bad_fault_request (typos never pass silently)', async (_label, headers) => {
    const r = await get<{ error: string }>(`${stubOf().url}${path}`, { ...baseHeaders, ...headers });
    expect([r.status, r.body.error]).toEqual([400, 'bad_fault_request']);
  });
});

describe('request log', () => {
  it('records method, url and every header as sent (nothing redacted)', async () => {
    price.stub.reset();
    await fetch(`${price.stub.url}/latest?trading_pair=btc_usdt`, {
      headers: { 'x-api-key': 'secret-123', 'user-agent': 'sdk-test/1.0', 'x-stub-fault': '500' },
    });
    await fetch(`${price.stub.url}/latest`, { method: 'POST', body: 'x' });
    expect(price.stub.requests).toHaveLength(2);
    expect(price.stub.requests[0]).toMatchObject({
      method: 'GET',
      url: '/latest?trading_pair=btc_usdt',
      headers: { 'x-api-key': 'secret-123', 'user-agent': 'sdk-test/1.0', 'x-stub-fault': '500' },
    });
    expect(price.stub.requests[1]).toMatchObject({ method: 'POST', url: '/latest' });
    price.stub.reset();
    expect(price.stub.requests).toEqual([]);
  });

  it('counts requests that were reset or faulted', async () => {
    node.stub.reset();
    await fetch(`${node.stub.url}/rpc/v2/accounts/0x1`, { headers: { 'x-stub-fault': 'reset' } }).catch(() => undefined);
    await fetch(`${node.stub.url}/rpc/v2/accounts/0x1`);
    expect(node.stub.requests.map((r) => r.url)).toEqual(['/rpc/v2/accounts/0x1', '/rpc/v2/accounts/0x1']);
  });
});
