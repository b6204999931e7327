import { describe, expect, it } from 'vitest';
import { createNodeClient, type NodeClient } from '@x/node-client';
import { STUB_ACCOUNTS } from '@x/testing';
import { collect, expectInvalid, useNodeStub } from '@x-tools/test-helpers';

const ctx = useNodeStub();
const A = STUB_ACCOUNTS.alice;
const node = (): NodeClient => createNodeClient({ baseUrl: ctx.stub.url, retry: false });
/** Values the types forbid, as a JavaScript caller may still pass them. */
const any = <T>(value: unknown): T => value as T;

type Case = [label: string, call: (n: NodeClient) => Promise<unknown>, parameter: string];

const cases: Case[] = [
  // address: with or without 0x, 1 to 64 hex digits, nothing else
  ['address empty', (n) => n.v2.getAccount(''), 'address'],
  ['address 0x only', (n) => n.v2.getAccount('0x'), 'address'],
  ['address 0X only', (n) => n.v2.getAccount('0X'), 'address'],
  ['address not hex', (n) => n.v2.getAccount('0xg1'), 'address'],
  ['address 65 digits', (n) => n.v2.getAccount(`0x${'a'.repeat(65)}`), 'address'],
  ['address with spaces', (n) => n.v2.getAccount(' 0x1 '), 'address'],
  ['address with a trailing newline', (n) => n.v2.getAccount('0x1\n'), 'address'],
  ['address with a path', (n) => n.v2.getAccount('0x1/../../v1/accounts/0x2'), 'address'],
  ['address with a query', (n) => n.v2.listTransactions('0x1?count=100'), 'address'],
  ['address with a fragment', (n) => n.v1.getAccount('0x1#x'), 'address'],
  ['address percent-encoded', (n) => n.v2.getAccount('0x1%2F'), 'address'],
  ['address a number', (n) => n.v2.getAccount(any(1)), 'address'],
  ['address missing', (n) => n.v2.getAccount(any(undefined)), 'address'],
  ['address of an iterator', (n) => collect(n.v2.transactions('nope')), 'address'],
  // module_name: a Move identifier
  ['module_name empty', (n) => n.v2.getModule(A, ''), 'module_name'],
  ['module_name starting with a digit', (n) => n.v2.getModule(A, '1coin'), 'module_name'],
  ['module_name with ::', (n) => n.v1.getModule(A, '0x1::coin'), 'module_name'],
  ['module_name with a slash', (n) => n.v2.getModule(A, 'coin/../x'), 'module_name'],
  ['module_name with a query', (n) => n.v2.getModule(A, 'coin?x=1'), 'module_name'],
  ['module_name with a hyphen', (n) => n.v2.getModule(A, 'my-module'), 'module_name'],
  ['module_name not a string', (n) => n.v2.getModule(A, any(['coin'])), 'module_name'],
  // resource_type: ^0x[0-9a-zA-Z:_<>]+$
  ['resource_type empty', (n) => n.v2.getResource(A, ''), 'resource_type'],
  ['resource_type without 0x', (n) => n.v2.getResource(A, '1::coin::CoinStore'), 'resource_type'],
  ['resource_type with a comma', (n) => n.v2.getResource(A, '0x1::m::Pair<u8,u64>'), 'resource_type'],
  ['resource_type with a space', (n) => n.v1.getResource(A, '0x1::m::Pair<u8, u64>'), 'resource_type'],
  ['resource_type with a slash', (n) => n.v2.getResource(A, '0x1::coin/../x'), 'resource_type'],
  ['resource_type with a query', (n) => n.v2.getResource(A, '0x1::coin::C?start=1'), 'resource_type'],
  ['resource_type with a fragment', (n) => n.v2.getResource(A, '0x1::coin::C#x'), 'resource_type'],
  // count: an integer >= 0; at most 100 on the transaction listings
  ['count negative', (n) => n.v2.listTransactions(A, { count: -1 }), 'count'],
  ['count fractional', (n) => n.v2.listModules(A, { count: 1.5 }), 'count'],
  ['count NaN', (n) => n.v2.listResources(A, { count: NaN }), 'count'],
  ['count Infinity', (n) => n.v1.listModules(A, { count: Infinity }), 'count'],
  ['count a string', (n) => n.v2.listTransactions(A, { count: any('20') }), 'count'],
  ['count 101 on v2 transactions', (n) => n.v2.listTransactions(A, { count: 101 }), 'count'],
  ['count 101 on v1 transactions', (n) => n.v1.listTransactions(A, { count: 101 }), 'count'],
  ['count 101 on v2 coin transactions', (n) => n.v2.listCoinTransactions(A, { count: 101 }), 'count'],
  ['count 101 on v1 coin transactions', (n) => n.v1.listCoinTransactions(A, { count: 101 }), 'count'],
  // start of the transaction listings: a u64
  ['start negative', (n) => n.v2.listTransactions(A, { start: -1 }), 'start'],
  ['start fractional', (n) => n.v2.listTransactions(A, { start: 1.5 }), 'start'],
  ['start beyond 2^53 as a number', (n) => n.v2.listTransactions(A, { start: 2 ** 53 }), 'start'],
  ['start NaN', (n) => n.v1.listTransactions(A, { start: NaN }), 'start'],
  ['start negative bigint', (n) => n.v2.listCoinTransactions(A, { start: -1n }), 'start'],
  ['start 2^64 as bigint', (n) => n.v2.listCoinTransactions(A, { start: 2n ** 64n }), 'start'],
  ['start 2^64 as a string', (n) => n.v1.listCoinTransactions(A, { start: '18446744073709551616' }), 'start'],
  ['start hex string', (n) => n.v2.listCoinTransactions(A, { start: '0x10' }), 'start'],
  ['start negative string', (n) => n.v2.listTransactions(A, { start: '-1' }), 'start'],
  ['start decimal with a fraction', (n) => n.v2.listTransactions(A, { start: '1.0' }), 'start'],
  ['start with a leading zero and a fraction', (n) => n.v2.listTransactions(A, { start: '01.5' }), 'start'],
  ['start empty string', (n) => n.v2.listTransactions(A, { start: '' }), 'start'],
  ['start a boolean', (n) => n.v2.listTransactions(A, { start: any(true) }), 'start'],
  // start of the module and resource listings: a string cursor (v1 also a u8 array)
  ['cursor a number', (n) => n.v2.listModules(A, { start: any(5) }), 'start'],
  ['cursor an object', (n) => n.v2.listResources(A, { start: any({}) }), 'start'],
  ['v1 cursor with 256', (n) => n.v1.listModules(A, { start: [0, 256] }), 'start'],
  ['v1 cursor with -1', (n) => n.v1.listResources(A, { start: [-1] }), 'start'],
  ['v1 cursor with 1.5', (n) => n.v1.listResources(A, { start: [1.5] }), 'start'],
  ['v2 cursor as an array', (n) => n.v2.listModules(A, { start: any([1, 2]) }), 'start'],
  // iterator options
  ['iterator start negative', (n) => collect(n.v2.transactions(A, { start: -5 })), 'start'],
  ['iterator start not a u64', (n) => collect(n.v2.coinTransactions(A, { start: 'latest' })), 'start'],
  ['iterator pageSize 0', (n) => collect(n.v2.transactions(A, { pageSize: 0 })), 'pageSize'],
  ['iterator pageSize 101 on transactions', (n) => collect(n.v1.transactions(A, { pageSize: 101 })), 'pageSize'],
  ['iterator pageSize 101 on coin transactions', (n) => collect(n.v2.coinTransactions(A, { pageSize: 101 })), 'pageSize'],
  ['iterator pageSize fractional', (n) => collect(n.v2.modules(A, { pageSize: 2.5 })), 'pageSize'],
  ['iterator limit negative', (n) => collect(n.v2.resources(A, { limit: -1 })), 'limit'],
  ['iterator limit NaN', (n) => collect(n.v1.resources(A, { limit: NaN })), 'limit'],
  ['iterator v1 cursor with 300', (n) => collect(n.v1.modules(A, { start: [300] })), 'start'],
];

describe('bad inputs are rejected before any request', () => {
  it('has at least 30 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases)('%s: InvalidArgumentError naming %s', async (_label, call, parameter) => {
    await expectInvalid(call(node()), parameter);
    expect(ctx.stub.requests).toEqual([]);
  });

  it('names the parameter and the problem in the message', async () => {
    await expect(node().v2.listTransactions(A, { count: 101 })).rejects.toThrow("Invalid argument 'count': must be <= 100, got 101");
  });
});

describe('client options are checked when the client is created', () => {
  const options: [label: string, options: Parameters<typeof createNodeClient>[0], parameter: string][] = [
    ['timeoutMs 0', { timeoutMs: 0 }, 'timeoutMs'],
    ['timeoutMs negative', { timeoutMs: -1 }, 'timeoutMs'],
    ['timeoutMs Infinity (a timer would fire at once)', { timeoutMs: Infinity }, 'timeoutMs'],
    ['timeoutMs beyond the timer limit', { timeoutMs: 2 ** 31 }, 'timeoutMs'],
    ['retry.attempts 0', { retry: { attempts: 0 } }, 'retry.attempts'],
    ['retry.attempts fractional', { retry: { attempts: 2.5 } }, 'retry.attempts'],
    ['retry.baseDelayMs negative', { retry: { baseDelayMs: -1 } }, 'retry.baseDelayMs'],
    ['retry.maxDelayMs NaN', { retry: { maxDelayMs: NaN } }, 'retry.maxDelayMs'],
    ['baseUrl without a scheme', { baseUrl: 'localhost:27000' }, 'baseUrl'],
    ['baseUrl not http', { baseUrl: 'ftp://127.0.0.1' }, 'baseUrl'],
    ['baseUrl not a URL', { baseUrl: 'not a url' }, 'baseUrl'],
  ];

  it.each(options)('%s', async (_label, o, parameter) => {
    await expectInvalid((async () => createNodeClient(o))(), parameter);
  });

  it('accepts the edge values', () => {
    expect(() => createNodeClient({ timeoutMs: 2 ** 31 - 1, retry: { attempts: 1, baseDelayMs: 0, maxElapsedMs: Infinity } })).not.toThrow();
    expect(() => createNodeClient({ baseUrl: 'https://rpc-testnet.supra.com', retry: false })).not.toThrow();
  });

  it('says what is wrong in a short message (explain(err) has the long help)', () => {
    const message = (o: Parameters<typeof createNodeClient>[0]): unknown => {
      try {
        createNodeClient(o);
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(message({ timeoutMs: 0 })).toBe("Invalid argument 'timeoutMs': must be from 1 to 2147483647, got 0");
    expect(message({ retry: { attempts: 2.5 } })).toBe("Invalid argument 'retry.attempts': must be an integer from 1 to 100, got 2.5");
    expect(message({ baseUrl: 'localhost:27000' })).toBe(`Invalid argument 'baseUrl': not an http(s) URL, got "localhost:27000"`);
    expect(message({ baseUrl: 'https://user:s3cret@rpc.example' })).toBe("Invalid argument 'baseUrl': has credentials");
    expect(message({ baseUrl: 'https://rpc.example/?key=s3cret' })).toBe("Invalid argument 'baseUrl': has a query or fragment");
    expect(message({ baseUrl: 'https://rpc.example/rpc/v3' })).toBe(`Invalid argument 'baseUrl': ends in /rpc/v3, got "https://rpc.example/rpc/v3"`);
  });
});

describe('edge values that are valid', () => {
  it.each([
    ['count 0 answers an empty page', (n: NodeClient) => n.v2.listTransactions(A, { count: 0, start: 0 }), 'count=0&start=0'],
    ['count 100 on transactions', (n: NodeClient) => n.v2.listTransactions(A, { count: 100, start: 0 }), 'count=100&start=0'],
    ['count above 100 on modules (no maximum there)', (n: NodeClient) => n.v2.listModules(A, { count: 500 }), 'count=500'],
    ['start u64 max as a string', (n: NodeClient) => n.v2.listTransactions(A, { start: '18446744073709551615' }), 'start=18446744073709551615'],
    ['start as a safe integer', (n: NodeClient) => n.v1.listCoinTransactions(A, { start: Number.MAX_SAFE_INTEGER }), `start=${Number.MAX_SAFE_INTEGER}`],
    ['address of 64 digits without 0x', (n: NodeClient) => n.v2.getAccount(A.slice(2)), ''],
  ])('%s', async (_label, call, query) => {
    await call(node());
    expect(ctx.stub.requests).toHaveLength(1);
    expect(ctx.stub.requests[0]!.url.split('?')[1] ?? '').toBe(query);
  });
});
