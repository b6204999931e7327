import { describe, expect, it } from 'vitest';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, FAULT_HEADERS, REDIRECT_STATUSES, STUB_ACCOUNTS, type StubHandle } from '../src/index.ts';
import { useNodeStub, usePriceStub } from '@x-tools/test-helpers';
import { get, SEED } from './helpers.ts';

const node = useNodeStub(SEED);
const price = usePriceStub({ seed: SEED });

const TARGETS: Array<[string, () => StubHandle, string, Record<string, string>, string]> = [
  // The node's view and table reads are POSTs: its preflight allows them.
  ['node', () => node.stub, `/rpc/v2/accounts/${STUB_ACCOUNTS.busy}/transactions?count=3`, {}, 'GET, POST'],
  ['price', () => price.stub, '/history?trading_pair=btc_usdt&startDate=1731974400000&endDate=1731988800000&interval=3600', { 'x-api-key': 'test-key' }, 'GET'],
];

describe.each(TARGETS)('CORS on the %s stub', (_name, stubOf, path, baseHeaders, methods) => {
  const url = (): string => `${stubOf().url}${path}`;

  it('answers a preflight with 204, the API methods, every fault header and x-api-key, on any path, and logs it', async () => {
    stubOf().reset();
    for (const p of [path, '/no/such/path']) {
      const r = await fetch(`${stubOf().url}${p}`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key, x-stub-fault' },
      });
      expect(r.status).toBe(204);
      expect(await r.text()).toBe('');
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('access-control-allow-methods')).toBe(methods);
      expect(r.headers.get('access-control-max-age')).toBe('0');
      const allowed = r.headers.get('access-control-allow-headers')!.split(', ');
      expect(allowed).toEqual(expect.arrayContaining(['x-api-key', ...Object.values(FAULT_HEADERS)]));
      expect(allowed).toEqual([...CORS_ALLOWED_HEADERS]);
    }
    expect(stubOf().requests.map((r) => r.method)).toEqual(['OPTIONS', 'OPTIONS']);
  });

  it.each([
    ['a normal answer', {}, 200],
    ['a 503 fault (Retry-After exposed)', { 'x-stub-fault': '503' }, 503],
    ['an html fault', { 'x-stub-fault': 'html' }, 502],
    ['a bad fault request', { 'x-stub-fault': 'nope' }, 400],
  ])('%s allows any origin and exposes Retry-After, the v3 headers, x-stub-clock and x-stub-sample', async (_label, headers, status) => {
    const r = await fetch(url(), { headers: { ...baseHeaders, ...headers, origin: 'http://localhost:5173' } });
    expect(r.status).toBe(status);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-expose-headers')).toBe('Retry-After, x-supra-cursor, x-supra-chain-id, x-supra-oldest-block, x-stub-clock, x-stub-sample');
    expect(r.headers.get('access-control-expose-headers')).toBe(CORS_EXPOSED_HEADERS.join(', '));
  });

  it('a 405 for another method carries the CORS headers too', async () => {
    const r = await fetch(url(), { method: 'POST', body: '{}' });
    expect([r.status, r.headers.get('access-control-allow-origin')]).toEqual([405, '*']);
  });
});

describe('CORS of the node stub\'s POST reads', () => {
  const origin = 'http://localhost:5173';

  it('a preflight of a JSON POST allows POST and content-type, as a browser asks', async () => {
    const r = await fetch(`${node.stub.url}/rpc/v3/view`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-methods')!.split(', ')).toContain('POST');
    expect(r.headers.get('access-control-allow-headers')!.split(', ')).toContain('content-type');
  });

  it.each([
    ['a view call', '/rpc/v3/view', { function: '0x1::chain_id::get', type_arguments: [], arguments: [] }, 200],
    ['a failing view call', '/rpc/v3/view', { function: '0x1::nope::nope', type_arguments: [], arguments: [] }, 400],
    ['a table item not there', `/rpc/v2/tables/0x1/item`, { key_type: 'address', value_type: 'address', key: '0x1' }, 404],
  ])('%s answers any origin, the v3 headers exposed', async (_label, path, body, status) => {
    const r = await fetch(`${node.stub.url}${path}`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(r.status).toBe(status);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-expose-headers')).toBe(CORS_EXPOSED_HEADERS.join(', '));
  });
});

describe.each(TARGETS)('the redirect fault on the %s stub', (_name, stubOf, path, baseHeaders) => {
  it.each(REDIRECT_STATUSES.map((s) => [s]))('x-stub-fault: %s answers that status with Location from x-stub-redirect-to', async (status) => {
    const r = await fetch(`${stubOf().url}${path}`, {
      headers: { ...baseHeaders, 'x-stub-fault': String(status), 'x-stub-redirect-to': 'http://127.0.0.1:9/elsewhere' },
      redirect: 'manual',
    });
    expect(r.status).toBe(status);
    expect(r.headers.get('location')).toBe('http://127.0.0.1:9/elsewhere');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(await r.json()).toMatchObject({ error: 'stub_redirect' });
  });

  it('{url} stands for the path and query: a same-origin redirect followed once, then answered normally', async () => {
    stubOf().reset();
    const normal = await (await fetch(`${stubOf().url}${path}`, { headers: baseHeaders })).text();
    const headers = {
      ...baseHeaders,
      'x-stub-fault': '307',
      'x-stub-redirect-to': '{url}&moved=1',
      'x-stub-fault-times': '1',
      'x-stub-fault-key': 'moved',
    };
    const manual = await fetch(`${stubOf().url}${path}`, { headers, redirect: 'manual' });
    expect(manual.headers.get('location')).toBe(`${path}&moved=1`);
    stubOf().reset();
    const followed = await fetch(`${stubOf().url}${path}`, { headers });
    expect(followed.redirected).toBe(true);
    expect(followed.url).toBe(`${stubOf().url}${path}&moved=1`);
    expect(await followed.text()).toBe(normal);
    expect(stubOf().requests.map((r) => r.url)).toEqual([path, `${path}&moved=1`]);
  });

  it('redirects to the other stub origin', async () => {
    const other = stubOf() === node.stub ? price.stub : node.stub;
    other.reset();
    const r = await fetch(`${stubOf().url}${path}`, {
      headers: { ...baseHeaders, 'x-stub-fault': '302', 'x-stub-redirect-to': `${other.url}/latest` },
      redirect: 'manual',
    });
    expect([r.status, r.headers.get('location')]).toEqual([302, `${other.url}/latest`]);
  });

  it.each([
    ['a redirect without x-stub-redirect-to', { 'x-stub-fault': '307' }],
    ['an empty x-stub-redirect-to', { 'x-stub-fault': '301', 'x-stub-redirect-to': ' ' }],
    ['a 3xx that is no redirect', { 'x-stub-fault': '304', 'x-stub-redirect-to': '/x' }],
    ['300', { 'x-stub-fault': '300', 'x-stub-redirect-to': '/x' }],
  ])('%s is a 400 bad_fault_request', async (_label, headers) => {
    const r = await get<{ error: string }>(`${stubOf().url}${path}`, { ...baseHeaders, ...headers });
    expect([r.status, r.body.error]).toEqual([400, 'bad_fault_request']);
  });
});
