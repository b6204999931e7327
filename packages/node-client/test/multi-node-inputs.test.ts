/**
 * The options of several nodes: a bad `baseUrl` list throws an `InvalidArgumentError` (a `ClientError`,
 * code `INVALID_ARGUMENT`) naming the option when the client is made; a bad `hedgeAfterMs`, `rateLimit`
 * or `onAttempt` when `fallback` is made, or at the first call of a client given them (its router loads
 * then), before any request. A URL is never echoed (it may carry a secret). And what is
 * fine: a list of one, trailing slashes, a path, and how the list is normalised (`baseUrls`).
 */
import { describe, expect, it } from 'vitest';
import { ClientError, createNodeClient, fallback, InvalidArgumentError, type FallbackOptions, type NodeClientOptions } from '@x/node-client';

/** The error of a bad option, as `check` meets it (a throw or a rejection), checked as every bad option's is. */
async function expectNamed(check: () => unknown, parameter: string): Promise<void> {
  let err: unknown;
  try {
    await check();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(InvalidArgumentError);
  expect(err).toBeInstanceOf(ClientError);
  expect((err as InvalidArgumentError).code).toBe('INVALID_ARGUMENT');
  expect((err as InvalidArgumentError).parameter).toBe(parameter);
  expect((err as Error).message).toContain(`'${parameter}'`);
  // A URL is never echoed: it may carry a secret.
  expect((err as Error).message).not.toMatch(/a\.test|b\.test|ftp:|secret-pw/);
}

type Case = [string, NodeClientOptions | Record<string, unknown>, string];

describe('bad base URLs: InvalidArgumentError naming baseUrl, at construction', () => {
  it.each<Case>([
    ['baseUrl: []', { baseUrl: [] }, 'baseUrl'],
    ["baseUrl: ['ftp://x']", { baseUrl: ['ftp://x'] }, 'baseUrl'],
    ["baseUrl: ['http://a.test', 'http://a.test/'] (the same after normalising)", { baseUrl: ['http://a.test', 'http://a.test/'] }, 'baseUrl'],
    ["baseUrl: ['http://a.test', 'HTTP://A.TEST:80'] (the same after normalising)", { baseUrl: ['http://a.test', 'HTTP://A.TEST:80'] }, 'baseUrl'],
    ['baseUrl: a good URL, then one that is not', { baseUrl: ['http://a.test', 'not a url'] }, 'baseUrl'],
    ['baseUrl: a list with a non-string', { baseUrl: ['http://a.test', 42] }, 'baseUrl'],
    ['baseUrl: a list with credentials in one URL', { baseUrl: ['http://a.test', 'http://user:secret-pw@b.test'] }, 'baseUrl'],
  ])('%s', async (_name, options, parameter) => {
    await expectNamed(() => createNodeClient({ baseUrl: 'http://a.test', ...options } as NodeClientOptions), parameter);
    await expectNamed(() => fallback({ baseUrl: 'http://a.test', ...options } as FallbackOptions), parameter);
  });
});

/**
 * The router's options: `fallback` checks them when made; `createNodeClient` loads the router (and so
 * checks them) at its first call, which rejects with the error before any request.
 */
describe("bad router options: InvalidArgumentError naming the option, from fallback() at once and from the client's first call", () => {
  it.each<Case>([
    ['hedgeAfterMs: 0', { baseUrl: ['http://a.test', 'http://b.test'], hedgeAfterMs: 0 }, 'hedgeAfterMs'],
    ['hedgeAfterMs: -1', { baseUrl: ['http://a.test', 'http://b.test'], hedgeAfterMs: -1 }, 'hedgeAfterMs'],
    ['hedgeAfterMs: NaN', { baseUrl: ['http://a.test', 'http://b.test'], hedgeAfterMs: NaN }, 'hedgeAfterMs'],
    ['hedgeAfterMs: Infinity', { baseUrl: ['http://a.test', 'http://b.test'], hedgeAfterMs: Infinity }, 'hedgeAfterMs'],
    ["hedgeAfterMs: '50'", { baseUrl: ['http://a.test', 'http://b.test'], hedgeAfterMs: '50' }, 'hedgeAfterMs'],
    ['rateLimit.requestsPerSecond: 0', { rateLimit: { requestsPerSecond: 0 } }, 'rateLimit.requestsPerSecond'],
    ['rateLimit.requestsPerSecond: -1', { rateLimit: { requestsPerSecond: -1 } }, 'rateLimit.requestsPerSecond'],
    ["rateLimit.requestsPerSecond: 'x'", { rateLimit: { requestsPerSecond: 'x' } }, 'rateLimit.requestsPerSecond'],
    ['rateLimit.requestsPerSecond: NaN', { rateLimit: { requestsPerSecond: NaN } }, 'rateLimit.requestsPerSecond'],
    ['rateLimit.requestsPerSecond: missing', { rateLimit: {} }, 'rateLimit.requestsPerSecond'],
    ['rateLimit.burst: 0', { rateLimit: { requestsPerSecond: 10, burst: 0 } }, 'rateLimit.burst'],
    ['rateLimit.burst: 1.5', { rateLimit: { requestsPerSecond: 10, burst: 1.5 } }, 'rateLimit.burst'],
    ['rateLimit.maxConcurrent: 0', { rateLimit: { requestsPerSecond: 10, maxConcurrent: 0 } }, 'rateLimit.maxConcurrent'],
    ['rateLimit.maxConcurrent: -2', { rateLimit: { requestsPerSecond: 10, maxConcurrent: -2 } }, 'rateLimit.maxConcurrent'],
    ['rateLimit: null', { rateLimit: null }, 'rateLimit'],
    ["onAttempt: 'log'", { onAttempt: 'log' }, 'onAttempt'],
  ])('%s', async (_name, options, parameter) => {
    await expectNamed(() => fallback({ baseUrl: ['http://a.test', 'http://b.test'], ...options } as FallbackOptions), parameter);
    const node = createNodeClient({ baseUrl: ['http://a.test', 'http://b.test'], ...options } as NodeClientOptions);
    await expectNamed(() => node.v3.getAccount('0x1'), parameter);
  });
});

describe('good lists', () => {
  it.each<[string, string | string[], string[]]>([
    ['one URL', 'http://a.test/', ['http://a.test']],
    ['a list of one', ['http://a.test'], ['http://a.test']],
    ['trailing slashes and paths, in order', ['https://b.test/rpc/', 'http://a.test:8080/'], ['https://b.test/rpc', 'http://a.test:8080']],
    ['the same host on two ports', ['http://a.test:1', 'http://a.test:2'], ['http://a.test:1', 'http://a.test:2']],
  ])('%s', (_name, baseUrl, expected) => {
    expect(createNodeClient({ baseUrl }).baseUrls).toEqual(expected);
  });

  it('a rateLimit or hedgeAfterMs with one node is accepted (hedging then has no other node to ask)', () => {
    expect(() => createNodeClient({ baseUrl: 'http://a.test', rateLimit: { requestsPerSecond: 0.5, burst: 1, maxConcurrent: 1 }, hedgeAfterMs: 1 })).not.toThrow();
  });
});
