/** Bad options and arguments: each throws StubArgumentError (code INVALID_ARGUMENT) naming what is wrong. */
import { describe, expect, it } from 'vitest';
import { createNodeStubFetch, createPriceStubFetch, startNodeStub, startPriceStub, StubArgumentError, type AccountSpec } from '../src/index.ts';

const withAccounts = (accounts: Record<string, AccountSpec>) => () => createNodeStubFetch({ accounts });

const CASES: Array<{ name: string; call: () => unknown; parameter: string }> = [
  { name: 'a port out of range', call: () => startNodeStub({ port: 70_000 }), parameter: 'port' },
  { name: 'a host off loopback', call: () => startPriceStub({ host: '0.0.0.0' }), parameter: 'host' },
  { name: 'unknown shapes', call: () => createNodeStubFetch({ shapes: 'both' as never }), parameter: 'shapes' },
  { name: 'a url that is not one', call: () => createPriceStubFetch({ url: 'not a url' }), parameter: 'url' },
  { name: 'a url that is not http', call: () => createNodeStubFetch({ url: 'ftp://127.0.0.1' }), parameter: 'url' },
  { name: 'a seed that is not an integer', call: () => startPriceStub({ seed: 1.5 }), parameter: 'seed' },
  { name: 'a negative requestLogSize', call: () => createNodeStubFetch({ requestLogSize: -1 }), parameter: 'requestLogSize' },
  { name: 'a requestLogSize that is not an integer', call: () => startPriceStub({ requestLogSize: 1.5 }), parameter: 'requestLogSize' },
  { name: 'an unbounded requestLogSize', call: () => startNodeStub({ requestLogSize: Infinity }), parameter: 'requestLogSize' },
  { name: 'a seed of another type', call: () => createNodeStubFetch({ seed: {} as never }), parameter: 'seed' },
  { name: 'failNext of an operation of the other service', call: () => createNodeStubFetch().failNext('getHistory' as never, 500), parameter: 'operationId' },
  { name: 'failNext of a 3xx without redirectTo', call: () => createNodeStubFetch().failNext('getAccountV2', 302), parameter: 'options.redirectTo' },
  { name: 'failNext of a 3xx that is no redirect', call: () => createNodeStubFetch().failNext('getAccountV2', 304), parameter: 'kind' },
  { name: 'failNext of an unknown kind', call: () => createPriceStubFetch().failNext('getLatest', 'flaky' as never), parameter: 'kind' },
  { name: 'failNext zero times', call: () => createNodeStubFetch().failNext('getAccountV2', 500, 0), parameter: 'times' },
  { name: 'failNext with a bad delay', call: () => createNodeStubFetch().failNext('getAccountV2', 'slow', 1, { delayMs: -1 }), parameter: 'options.delayMs' },
  { name: 'an account named as a seeded one', call: withAccounts({ alice: {} }), parameter: 'accounts.alice' },
  { name: 'an account with a malformed address', call: withAccounts({ x: { address: '0xZZ' } }), parameter: 'accounts.x.address' },
  { name: 'an account at a seeded address', call: withAccounts({ x: { address: '0x1' } }), parameter: 'accounts.x.address' },
  { name: 'a sequence number below the transactions given', call: withAccounts({ x: { sequenceNumber: 0, transactions: [{ to: 'alice' }] } }), parameter: 'accounts.x.sequenceNumber' },
  { name: 'a transaction that is neither transfer nor call', call: withAccounts({ x: { transactions: [{}] } }), parameter: 'accounts.x.transactions[0]' },
  { name: 'a transfer to nobody', call: withAccounts({ x: { transactions: [{ to: 'nobody!' }] } }), parameter: 'accounts.x.transactions[0].to' },
  { name: 'an amount above u64', call: withAccounts({ x: { transactions: [{ to: 'alice', amount: '18446744073709551616' }] } }), parameter: 'accounts.x.transactions[0].amount' },
  { name: 'a transfer beyond the balance', call: withAccounts({ x: { balance: 10, transactions: [{ to: 'alice', amount: 1_000_000 }] } }), parameter: 'accounts.x.transactions[0].amount' },
  { name: 'gas beyond the balance', call: withAccounts({ x: { balance: 10, transactions: [{ function: '0x1::a::b', gasUsed: 5 }] } }), parameter: 'accounts.x.transactions[0].gasUsed' },
  { name: 'a resource type that is not a struct', call: withAccounts({ x: { resources: [{ type: 'u64', data: {} }] } }), parameter: 'accounts.x.resources[0].type' },
  { name: 'a module name that is not an identifier', call: withAccounts({ x: { modules: [{ name: '1abc' }] } }), parameter: 'accounts.x.modules[0].name' },
];

describe('bad options', () => {
  it.each(CASES)('$name: StubArgumentError naming $parameter', async ({ call, parameter }) => {
    let thrown: unknown;
    try {
      await call();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(StubArgumentError);
    expect(thrown).toMatchObject({ name: 'StubArgumentError', code: 'INVALID_ARGUMENT', parameter });
    expect((thrown as Error).message.startsWith(`${parameter}: `)).toBe(true);
  });
});
