/**
 * The options of several nodes, checked when the client is created: a bad `baseUrl` list, `hedgeAfterMs`,
 * `rateLimit` or `onAttempt` throws an `InvalidArgumentError` (a `ClientError`, code `INVALID_ARGUMENT`)
 * naming the option, before any request; a URL is never echoed (it may carry a secret). And what is
 * fine: a list of one, trailing slashes, a path, and how the list is normalised (`baseUrls`).
 */
import { describe, expect, it } from 'vitest';
import { ClientError, createNodeClient, InvalidArgumentError, type NodeClientOptions } from '@x/node-client';

describe('bad options: InvalidArgumentError naming the option, at construction', () => {
  it.each<[string, NodeClientOptions | Record<string, unknown>, string]>([
    ['baseUrl: []', { baseUrl: [] }, 'baseUrl'],
    ["baseUrl: ['ftp://x']", { baseUrl: ['ftp://x'] }, 'baseUrl'],
    ["baseUrl: ['http://a.test', 'http://a.test/'] (the same after normalising)", { baseUrl: ['http://a.test', 'http://a.test/'] }, 'baseUrl'],
    ["baseUrl: ['http://a.test', 'HTTP://A.TEST:80'] (the same after normalising)", { baseUrl: ['http://a.test', 'HTTP://A.TEST:80'] }, 'baseUrl'],
    ['baseUrl: a good URL, then one that is not', { baseUrl: ['http://a.test', 'not a url'] }, 'baseUrl'],
    ['baseUrl: a list with a non-string', { baseUrl: ['http://a.test', 42] }, 'baseUrl'],
    ['baseUrl: a list with credentials in one URL', { baseUrl: ['http://a.test', 'http://user:secret-pw@b.test'] }, 'baseUrl'],
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
  ])('%s', (_name, options, parameter) => {
    let err: unknown;
    try {
      createNodeClient({ baseUrl: 'http://a.test', ...options } as NodeClientOptions);
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
