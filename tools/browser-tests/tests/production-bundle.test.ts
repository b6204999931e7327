/**
 * The clients and validators as a production build ships them: one esbuild bundle, minified, for
 * browsers (built by the global setup from the packages' dist/), loaded from the page's own origin
 * under the CSP. Class names are mangled there; error names must not be.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type * as BundleEntry from '../src/bundle-entry.ts';
import { rejection } from './helpers.ts';

type Bundle = typeof BundleEntry;
let lib: Bundle;

beforeAll(async () => {
  lib = (await import(/* @vite-ignore */ inject('minBundle'))) as Bundle;
});

const nodeUrl = inject('nodeUrl');
const { alice, unknown } = inject('accounts');

describe('a minified production bundle', () => {
  it('is minified: identifiers are mangled', async () => {
    const text = await (await fetch(inject('minBundle'))).text();
    expect(text).not.toContain('class HttpError');
    expect(text).not.toContain('function createNodeClient');
    expect(text.split('\n').length).toBeLessThan(100);
  });

  it.each([
    ['HttpError', 'HTTP_ERROR', () => lib.createNodeClient({ baseUrl: nodeUrl, retry: false }).v2.getAccount(unknown)],
    ['InvalidArgumentError', 'INVALID_ARGUMENT', () => lib.createNodeClient({ baseUrl: nodeUrl }).v2.listTransactions(alice, { count: 101 })],
    ['TimeoutError', 'TIMEOUT', () => lib.createNodeClient({ baseUrl: nodeUrl, retry: false, timeoutMs: 100, headers: { 'x-stub-fault': 'slow' } }).v2.getAccount(alice)],
    ['NetworkError', 'NETWORK_ERROR', () => lib.createNodeClient({ baseUrl: nodeUrl, retry: false, headers: { 'x-not-allowed': '1' } }).v2.getAccount(alice)],
    ['ResponseParseError', 'RESPONSE_PARSE_ERROR', () => lib.createNodeClient({ baseUrl: nodeUrl, retry: false, headers: { 'x-stub-fault': 'not-json' } }).v2.getAccount(alice)],
    [
      'ResponseValidationError',
      'RESPONSE_VALIDATION_ERROR',
      () => {
        const strict = lib.createResponseValidator({ strict: true });
        // An account body checked as a transaction listing: the validator rejects it.
        return lib.createNodeClient({ baseUrl: nodeUrl, retry: false, validator: (_id, status, body) => strict('listTransactionsV2', status, body) }).v2.getAccount(alice);
      },
    ],
  ] as const)('errors keep their names: %s', async (name, code, call) => {
    const err = (await rejection(call())) as Error & { code: string };
    expect([err.name, err.code]).toEqual([name, code]);
    expect(err).toBeInstanceOf(lib.ClientError);
    expect(String(err)).toMatch(new RegExp(`^${name}: `));
  });

  it('the price client and the validators work from it', async () => {
    const prices = lib.createPriceClient({ baseUrl: inject('priceUrl'), apiKey: inject('priceKey'), retry: false });
    const body = await prices.latest({ pair: 'btc_usdt' });
    expect(lib.validateResponse('getLatest', 200, body, { strict: true })).toMatchObject({ ok: true });
    expect(lib.validateResponse('getAccountV2', 200, { sequence_number: 'x' })).toMatchObject({ ok: false });
  });
});
