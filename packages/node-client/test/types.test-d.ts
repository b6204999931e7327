import { describe, expectTypeOf, it } from 'vitest';
import {
  createNodeClient,
  type Walk,
  type WalkPage,
  type HttpError,
  type InvalidArgumentError,
  type ClientError,
  type AccountCoinStatementV1,
  type AccountCoinStatementV2,
  type AccountData,
  type AccountStatementV1,
  type AccountStatementV2,
  type MoveList,
  type MoveModule,
  type MoveModuleBytecode,
  type MoveModuleListV2,
  type MoveResource,
  type MoveResourceOf,
  type MoveResourcesResponse,
  type MoveValueResponseV1,
  type NodeClient,
  type NodeClientOptions,
  type RetryOptions,
  type TransactionInfoV1,
  type TransactionInfoV2,
  type StructTag,
} from '@x/node-client';

const node = createNodeClient();

describe('operations return the typed body', () => {
  it('v2', () => {
    expectTypeOf(node.v2.getAccount('0x1')).resolves.toEqualTypeOf<AccountData>();
    expectTypeOf(node.v2.listTransactions('0x1')).resolves.toEqualTypeOf<AccountStatementV2>();
    expectTypeOf(node.v2.listCoinTransactions('0x1')).resolves.toEqualTypeOf<AccountCoinStatementV2>();
    expectTypeOf(node.v2.listModules('0x1')).resolves.toEqualTypeOf<MoveModuleListV2>();
    expectTypeOf(node.v2.getModule('0x1', 'coin')).resolves.toEqualTypeOf<MoveModuleBytecode>();
    expectTypeOf(node.v2.listResources('0x1')).resolves.toEqualTypeOf<MoveResourcesResponse>();
    expectTypeOf(node.v2.getResource('0x1', '0x1::account::Account')).resolves.toEqualTypeOf<MoveResourceOf<'0x1::account::Account'>>();
    expectTypeOf(node.v2.getResource('0x1', '0x1::account::Account')).resolves.toExtend<MoveResource>();
  });

  it('v1, with null where v1 answers null', () => {
    expectTypeOf(node.v1.getAccount('0x1')).resolves.toEqualTypeOf<AccountData | null>();
    expectTypeOf(node.v1.getModule('0x1', 'coin')).resolves.toEqualTypeOf<MoveModule | null>();
    expectTypeOf(node.v1.getResource('0x1', '0x1::account::Account')).resolves.toEqualTypeOf<MoveValueResponseV1 | null>();
    expectTypeOf(node.v1.listTransactions('0x1')).resolves.toEqualTypeOf<AccountStatementV1>();
    expectTypeOf(node.v1.listCoinTransactions('0x1')).resolves.toEqualTypeOf<AccountCoinStatementV1>();
    expectTypeOf(node.v1.listModules('0x1')).resolves.toEqualTypeOf<MoveList>();
    expectTypeOf(node.v1.listResources('0x1')).resolves.toEqualTypeOf<MoveList>();
  });
});

describe('iterators yield the items of their listing', () => {
  it('v2', () => {
    expectTypeOf(node.v2.transactions('0x1')).toEqualTypeOf<Walk<TransactionInfoV2>>();
    expectTypeOf(node.v2.coinTransactions('0x1')).toEqualTypeOf<Walk<TransactionInfoV2>>();
    expectTypeOf(node.v2.modules('0x1')).toEqualTypeOf<Walk<MoveModuleBytecode>>();
    expectTypeOf(node.v2.resources('0x1')).toEqualTypeOf<Walk<MoveResource>>();
    // Pages mode: the same items a page at a time, with where to go on.
    expectTypeOf(node.v2.transactions('0x1').pages()).toEqualTypeOf<AsyncGenerator<WalkPage<TransactionInfoV2>, void, undefined>>();
    expectTypeOf<WalkPage<TransactionInfoV2>['resume']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<WalkPage<TransactionInfoV2>['oldestBlock']>().toEqualTypeOf<bigint | undefined>();
  });

  it('v1', () => {
    expectTypeOf(node.v1.transactions('0x1')).toEqualTypeOf<Walk<TransactionInfoV1>>();
    expectTypeOf(node.v1.coinTransactions('0x1')).toEqualTypeOf<Walk<TransactionInfoV1>>();
    expectTypeOf(node.v1.resources('0x1')).toEqualTypeOf<Walk<[string, StructTag]>>();
    expectTypeOf(node.v1.modules('0x1')).toEqualTypeOf<Walk<[string, { address: string; name: string }]>>();
  });
});

describe('inputs', () => {
  it('u64 start takes a number, a bigint or a decimal string', () => {
    expectTypeOf(node.v2.listTransactions).toBeCallableWith('0x1', { start: 1 });
    expectTypeOf(node.v2.listTransactions).toBeCallableWith('0x1', { start: 1n });
    expectTypeOf(node.v2.listCoinTransactions).toBeCallableWith('0x1', { start: '18446744073709551615', count: 100 });
  });

  it('list cursors: v2 a string; v1 a string or the u8 array the server sent', () => {
    expectTypeOf(node.v2.listModules).toBeCallableWith('0x1', { start: 'ab' });
    expectTypeOf(node.v1.listModules).toBeCallableWith('0x1', { start: [0, 1, 255] });
    // @ts-expect-error a v2 cursor is a string
    void node.v2.listResources('0x1', { start: [1, 2] });
    // @ts-expect-error module listings do not take a u64 start
    void node.v2.listModules('0x1', { start: 10 });
  });

  it('iterator options', () => {
    expectTypeOf(node.v2.transactions).toBeCallableWith('0x1', { start: 0n, pageSize: 100, limit: 10, signal: new AbortController().signal });
    // @ts-expect-error pageSize is a number
    void node.v2.modules('0x1', { pageSize: '10' });
    expectTypeOf(node.v2.transactions).toBeCallableWith('0x1', { start: 0, concurrency: 8 });
    expectTypeOf(node.v1.transactions).toBeCallableWith('0x1', { order: 'desc', concurrency: 4, limit: 50 });
    expectTypeOf(node.v2.coinTransactions).toBeCallableWith('0x1', { concurrency: 2, order: 'asc' });
    // @ts-expect-error newest first starts at the newest item: no start
    void node.v2.transactions('0x1', { order: 'desc', start: 5 });
    // @ts-expect-error coin transactions have no documented way back past the newest page
    void node.v2.coinTransactions('0x1', { order: 'desc' });
    // @ts-expect-error order is 'asc' or 'desc'
    void node.v2.transactions('0x1', { order: 'newest' });
  });

  it('client options', () => {
    expectTypeOf<NodeClientOptions>().toHaveProperty('retry').toEqualTypeOf<RetryOptions | false | undefined>();
    expectTypeOf(createNodeClient).toBeCallableWith({ baseUrl: 'http://localhost:27000', timeoutMs: 5000, retry: false });
    // @ts-expect-error retry takes options or false, not true
    void createNodeClient({ retry: true });
  });
});

describe('errors', () => {
  it('share one base class with a code', () => {
    expectTypeOf<HttpError>().toExtend<ClientError>();
    expectTypeOf<InvalidArgumentError['parameter']>().toEqualTypeOf<string>();
    expectTypeOf<HttpError['status']>().toEqualTypeOf<number>();
    expectTypeOf<HttpError['body']>().toEqualTypeOf<unknown>();
  });

  it('the client type is what createNodeClient returns', () => {
    expectTypeOf(node).toEqualTypeOf<NodeClient>();
  });
});
