/**
 * The wallet and explorer readers of `@x/node-client/shapes`, through the public API over loopback:
 * the node stub in both shapes (documented and live) and both versions, a stub with accounts of the
 * test's own (the other documented v1 form, a coin of another issuer), and a small server that sends
 * records no reader can read (ResponseShapeError with the JSON pointer). The README's example file is
 * shown there verbatim and run here.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeClient, InvalidArgumentError, ResponseShapeError, type NodeClient, type TransactionInfoV1, type TransactionInfoV2 } from '@x/node-client';
import {
  coinBalance,
  coinChanges,
  coinDecimals,
  coinInfoOf,
  coinStoreType,
  formatAmount,
  SUPRA_COIN,
} from '@x/node-client/shapes';
import { startNodeStub, STUB_ACCOUNTS, type NodeStubHandle } from '@x/testing';
import { activity, balanceText } from './examples/wallet.ts';
import { rejectionOf, useNodeStub } from '@x-tools/test-helpers';
import { json, startBadServer } from './helpers.ts';

const ctx = useNodeStub();
const SHAPES = ['documented', 'live'] as const;
const client = (shapes: (typeof SHAPES)[number]): NodeClient => createNodeClient({ baseUrl: ctx.stub.url, headers: { 'x-stub-shapes': shapes }, retry: false });
const STORE = coinStoreType(SUPRA_COIN);
const INFO = coinInfoOf(SUPRA_COIN);
const FORMS = SHAPES.flatMap((shapes) => (['v1', 'v2'] as const).map((version) => [shapes, version] as const));

/** What the documented v2 answer holds: the balance as the node wrote it. */
async function truth(address: string): Promise<bigint> {
  return BigInt((await client('documented').v2.getResource(address, STORE)).data.coin.value);
}

describe('coinBalance reads every form of a CoinStore the same', () => {
  const accounts = ['alice', 'bob', 'busy', 'publisher', 'receiveOnly', 'exactly101'] as const;
  it.each(FORMS)('%s %s', async (shapes, version) => {
    const node = client(shapes);
    for (const name of accounts) {
      const address = STUB_ACCOUNTS[name];
      const body = version === 'v2' ? await node.v2.getResource(address, STORE) : (await node.v1.getResource(address, STORE))!;
      expect(coinBalance(body), name).toBe(await truth(address));
    }
  });

  it('reads the documented v1 form of one MoveValue per field, and the live struct JSON', async () => {
    const documented = (await client('documented').v1.getResource(STUB_ACCOUNTS.alice, STORE))!;
    const live = (await client('live').v1.getResource(STUB_ACCOUNTS.alice, STORE))!;
    expect(documented.result[0]).toHaveProperty('Struct.value'); // [{ Struct: { value } }, { Bool }, ...]
    expect(live.result[0]).toHaveProperty('coin.value'); // [{ coin: { value }, frozen, ... }]
  });
});

describe('coinDecimals and coinInfoOf', () => {
  it.each(FORMS)('CoinInfo of the native coin at 0x1, %s %s: 8 decimals', async (shapes, version) => {
    const node = client(shapes);
    expect(INFO).toEqual({ address: '0x1', resourceType: '0x1::coin::CoinInfo<0x1::supra_coin::SupraCoin>' });
    const body = version === 'v2' ? await node.v2.getResource(INFO.address, INFO.resourceType) : (await node.v1.getResource(INFO.address, INFO.resourceType))!;
    expect(coinDecimals(body)).toBe(8);
  });
});

describe('formatAmount: exact decimal text', () => {
  it.each([
    [1001350324471406n, 8, '10013503.24471406'],
    [100000000n, 8, '1'],
    [5n, 8, '0.00000005'],
    [0n, 8, '0'],
    [0n, 0, '0'],
    [123n, 0, '123'],
    ['18446744073709551615', 8, '184467440737.09551615'],
    ['18446744073709551615', 19, '1.8446744073709551615'],
    ['18446744073709551615', 20, '0.18446744073709551615'],
    [-150000000n, 8, '-1.5'],
    ['-1500', 3, '-1.5'],
    [9007199254740991, 2, '90071992547409.91'],
    ['007', 2, '0.07'],
    [10n ** 40n + 1n, 30, '10000000000.000000000000000000000000000001'],
  ] as const)('formatAmount(%s, %d) = %s', (value, decimals, text) => {
    expect(formatAmount(value, decimals)).toBe(text);
  });
});

describe('coinChanges: what a transaction did to an address', () => {
  it.each(FORMS)('every coin transaction of alice, %s %s: its transfer amount, in or out; counts agree with the CoinStore', async (shapes, version) => {
    const node = client(shapes);
    const address = STUB_ACCOUNTS.alice;
    const txs: (TransactionInfoV1 | TransactionInfoV2)[] = [];
    for await (const tx of (version === 'v2' ? node.v2 : node.v1).coinTransactions(address)) txs.push(tx);
    let deposits = 0;
    let withdrawals = 0;
    const coinStore = await node.v2.getResource(address, STORE);
    for (const tx of txs) {
      const changes = coinChanges(tx, address);
      const payload = tx.payload as { Move: { arguments: [string, string] } };
      const amount = BigInt(payload.Move.arguments[1]);
      // A transfer alice sent withdraws its amount; one she received deposits it.
      if (changes.withdrawn > 0n) withdrawals++;
      if (changes.deposited > 0n) deposits++;
      expect(changes.deposited + changes.withdrawn).toBe(amount);
      expect(changes.net).toBe(changes.deposited - changes.withdrawn);
      // Only SupraCoin moves here, so the CoinStore's own streams give the same answer.
      expect(coinChanges(tx, address, { coinStore })).toEqual(changes);
    }
    const store = (await client('documented').v2.getResource(address, STORE)).data;
    expect(withdrawals).toBe(Number(store.withdraw_events.counter));
    expect(deposits).toBe(Number(store.deposit_events.counter));
  });

  it.each(SHAPES)('a transaction without coin events moved nothing (%s): system outputs, calls, failed transfers', async (shapes) => {
    const node = client(shapes);
    for (const name of ['framework', 'busy'] as const) {
      const { record } = await node.v2.listTransactions(STUB_ACCOUNTS[name], { start: 0, count: 100 });
      for (const tx of record) {
        const isTransfer = tx.status === 'Success' && JSON.stringify(tx.payload).includes('supra_account::transfer');
        if (!isTransfer) expect(coinChanges(tx, STUB_ACCOUNTS[name])).toEqual({ deposited: 0n, withdrawn: 0n, net: 0n });
      }
    }
  });

  it('matches addresses in any form: 0x1, 0x00…01, without 0x, upper case', () => {
    const tx = { output: { Move: { gas_used: 1, vm_status: 'ok', events: [{ guid: { creation_number: '3', account_address: '0x0000000000000000000000000000000000000000000000000000000000000001' }, sequence_number: '1', type: '0x1::coin::WithdrawEvent', data: { amount: '25' } }] } } };
    for (const a of ['0x1', '1', '0x0001', '0X1']) expect(coinChanges(tx, a).withdrawn).toBe(25n);
    expect(coinChanges(tx, '0x2').withdrawn).toBe(0n);
  });
});

describe('a coin of another issuer, and the documented v1 form [{ Struct: data }]', () => {
  let stub: NodeStubHandle;
  const USDC = '0xcafe::usdc::USDC';
  const handle = (n: number) => ({ counter: '0', guid: { id: { creation_num: String(n), addr: '0xcafe' } } });
  beforeAll(async () => {
    stub = await startNodeStub({
      port: 0,
      seed: 7,
      accounts: {
        issuer: { address: '0xcafe', resources: [{ type: `0x1::coin::CoinInfo<${USDC}>`, data: { name: 'USD Coin', symbol: 'USDC', decimals: 6, supply: { vec: [] } } }] },
        carol: {
          balance: 1_000_000_000_000n,
          transactions: [{ to: 'alice', amount: 250_000_000 }, { to: 'bob', amount: 1 }],
          resources: [{ type: `0x1::coin::CoinStore<${USDC}>`, data: { coin: { value: '1234567' }, frozen: false, deposit_events: handle(9), withdraw_events: handle(10) } }],
        },
      },
    });
  });
  afterAll(() => stub.close());

  it.each(SHAPES)('%s: balances, decimals and the README example', async (shapes) => {
    const node = createNodeClient({ baseUrl: stub.url, headers: { 'x-stub-shapes': shapes } });
    const carol = stub.accounts.carol!;
    const usdc = coinInfoOf(USDC);
    expect(usdc.address).toBe('0xcafe');
    expect(formatAmount(coinBalance(await node.v2.getResource(carol, coinStoreType(USDC))), coinDecimals(await node.v2.getResource(usdc.address, usdc.resourceType)))).toBe('1.234567');
    const v1 = (await node.v1.getResource(carol, coinStoreType(USDC)))!;
    expect(v1.result).toHaveLength(1); // [{ Struct: data }] documented, [data] live
    expect(coinBalance(v1)).toBe(1234567n);
    expect(coinDecimals((await node.v1.getResource(usdc.address, usdc.resourceType))!)).toBe(6);
    // SupraCoin: 10^12 less the two transfers and their gas (12 units at 100 each).
    const supra = 1_000_000_000_000n - 250_000_001n - 2n * 1200n;
    expect(coinBalance(await node.v2.getResource(carol, STORE))).toBe(supra);
    expect(coinBalance((await node.v1.getResource(carol, STORE))!)).toBe(supra);
    expect(await balanceText(node, carol)).toBe(`${formatAmount(supra, 8)} SUPRA`);
    expect(await balanceText(node, carol, USDC)).toBe('1.234567 USDC');
    // An account that never held USDC: 0; an unknown account: the 404 of getAccount (issue 37.6).
    expect(await balanceText(node, STUB_ACCOUNTS.alice, USDC)).toBe('0 USDC');
    const unknown = `0x${'e'.repeat(64)}`;
    const err = await rejectionOf(balanceText(node, unknown, USDC));
    expect(err).toMatchObject({ name: 'HttpError', status: 404 });
    expect((err as { url: string }).url).toMatch(new RegExp(`/rpc/v2/accounts/${unknown}$`));
    expect(await activity(node, carol)).toEqual([expect.stringMatching(/^0x[0-9a-f]{6}… -0\.00000001$/), expect.stringMatching(/^0x[0-9a-f]{6}… -2\.5$/)]);
    // Its USDC streams saw none of these SupraCoin transfers.
    const { record } = await node.v2.listCoinTransactions(carol);
    const usdcStore = await node.v2.getResource(carol, coinStoreType(USDC));
    for (const tx of record) expect(coinChanges(tx, carol, { coinStore: usdcStore }).net).toBe(0n);
  });
});

describe('README: Wallets and explorers', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const example = readFileSync(new URL('./examples/wallet.ts', import.meta.url), 'utf8');

  it('shows test/examples/wallet.ts verbatim', () => {
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });

  it.each(SHAPES)('runs it against the stub (%s)', async (shapes) => {
    const node = client(shapes);
    const address = STUB_ACCOUNTS.alice;
    expect(await balanceText(node, address)).toBe(`${formatAmount(await truth(address), 8)} SUPRA`);
    const lines = await activity(node, address, 5);
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(line).toMatch(/^0x[0-9a-f]{6}… [+-][0-9]+(\.[0-9]{1,8})?$/);
  });
});

describe('a record no reader can read: ResponseShapeError with the JSON pointer', () => {
  type Case = [label: string, body: unknown, read: (node: NodeClient) => Promise<unknown>, reader: string, path: string];
  const A = STUB_ACCOUNTS.alice;
  const v2Store = (node: NodeClient) => node.v2.getResource(A, STORE);
  const v1Store = async (node: NodeClient) => (await node.v1.getResource(A, STORE))!;
  const v2Info = (node: NodeClient) => node.v2.getResource(INFO.address, INFO.resourceType);
  const v1Info = async (node: NodeClient) => (await node.v1.getResource(INFO.address, INFO.resourceType))!;
  const coinTx = async (node: NodeClient) => (await node.v2.listCoinTransactions(A)).record[0]!;
  const tx = (events: unknown) => ({ record: [{ hash: '0x1', output: { Move: { gas_used: 1, vm_status: 'ok', events } } }], cursor: 1 });
  const cases: Case[] = [
    ['v2 balance a number with a fraction', { type: STORE, data: { coin: { value: 12.5 } } }, async (n) => coinBalance(await v2Store(n)), 'coinBalance', '/data/coin/value'],
    ['v2 balance hex', { type: STORE, data: { coin: { value: '0x10' } } }, async (n) => coinBalance(await v2Store(n)), 'coinBalance', '/data/coin/value'],
    ['v2 balance above u64', { type: STORE, data: { coin: { value: '18446744073709551616' } } }, async (n) => coinBalance(await v2Store(n)), 'coinBalance', '/data/coin/value'],
    ['v2 coin missing', { type: STORE, data: { frozen: false } }, async (n) => coinBalance(await v2Store(n)), 'coinBalance', '/data/coin'],
    ['v2 neither data nor result', { type: STORE }, async (n) => coinBalance(await v2Store(n)), 'coinBalance', ''],
    ['v1 live balance not a u64', { result: [{ coin: { value: 'lots' }, frozen: false }] }, async (n) => coinBalance(await v1Store(n)), 'coinBalance', '/result/0/coin/value'],
    ['v1 documented Struct balance negative', { result: [{ Struct: { coin: { value: '-1' } } }] }, async (n) => coinBalance(await v1Store(n)), 'coinBalance', '/result/0/Struct/coin/value'],
    ['v1 per-field balance not a u64', { result: [{ Struct: { value: true } }, { Bool: false }] }, async (n) => coinBalance(await v1Store(n)), 'coinBalance', '/result/0/Struct/value'],
    ['v1 per-field item not a MoveValue', { result: [null, { Bool: false }] }, async (n) => coinBalance(await v1Store(n)), 'coinBalance', '/result/0'],
    ['v1 result empty', { result: [] }, async (n) => coinBalance(await v1Store(n)), 'coinBalance', '/result/0'],
    ['v2 decimals 256', { type: INFO.resourceType, data: { decimals: 256 } }, async (n) => coinDecimals(await v2Info(n)), 'coinDecimals', '/data/decimals'],
    ['v2 decimals a string', { type: INFO.resourceType, data: { decimals: '8' } }, async (n) => coinDecimals(await v2Info(n)), 'coinDecimals', '/data/decimals'],
    ['v1 per-field decimals a string', { result: [{ String: 'Supra Coin' }, { String: 'SUPRA' }, { U8: 'eight' }, null] }, async (n) => coinDecimals(await v1Info(n)), 'coinDecimals', '/result/2/U8'],
    ['event amount not a u64', tx([{ guid: `${A}:3`, sequence_number: 0, type: '0x1::coin::WithdrawEvent', data: { amount: 1.5 } }]), async (n) => coinChanges(await coinTx(n), A), 'coinChanges', '/output/Move/events/0/data/amount'],
    ['event guid of neither form', tx([{ guid: 7, sequence_number: 0, type: '0x1::coin::DepositEvent', data: { amount: '1' } }]), async (n) => coinChanges(await coinTx(n), A), 'coinChanges', '/output/Move/events/0/guid'],
    ['live guid creation number not a u64', tx([{ guid: { creation_number: 'x', account_address: A }, sequence_number: '0', type: '0x1::coin::DepositEvent', data: { amount: '1' } }]), async (n) => coinChanges(await coinTx(n), A), 'coinChanges', '/output/Move/events/0/guid/creation_number'],
    ['events not an array', tx({}), async (n) => coinChanges(await coinTx(n), A), 'coinChanges', '/output/Move/events'],
    ['an event not an object', tx(['deposit']), async (n) => coinChanges(await coinTx(n), A), 'coinChanges', '/output/Move/events/0'],
  ];

  it.each(cases)('%s', async (_label, body, read, reader, path) => {
    const server = await startBadServer((_url, res) => json(res, body));
    try {
      const err: unknown = await read(createNodeClient({ baseUrl: server.url, retry: false })).then(
        () => expect.fail('expected a ResponseShapeError'),
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ResponseShapeError);
      expect(err).not.toBeInstanceOf(InvalidArgumentError);
      expect((err as ResponseShapeError).code).toBe('RESPONSE_SHAPE_ERROR');
      expect((err as ResponseShapeError).operationId).toBe(reader);
      expect((err as ResponseShapeError).path).toBe(path);
      expect((err as ResponseShapeError).message).toMatch(new RegExp(`^Response of ${reader} at '${path || '/'}': expected .+, got `));
    } finally {
      await server.close();
    }
  });
});

describe("the caller's own mistakes: InvalidArgumentError naming the argument", () => {
  const any = <T>(v: unknown): T => v as T;
  it.each<[parameter: string, hint: string, call: () => unknown]>([
    ['decimals', 'must be an integer from 0 to 255', () => formatAmount(1n, 256)],
    ['decimals', 'must be an integer from 0 to 255', () => formatAmount(1n, 1.5)],
    ['value', 'pass larger or fractional amounts as bigint or decimal text', () => formatAmount(0.1, 8)],
    ['value', 'pass larger or fractional amounts as bigint or decimal text', () => formatAmount(2 ** 53, 8)],
    ['value', "in the coin's smallest unit", () => formatAmount('1.5', 8)],
    ['coinType', "e.g. '0x1::supra_coin::SupraCoin'", () => coinInfoOf('SupraCoin')],
    ['coinType', 'must be a Move struct type', () => coinStoreType('0x1::coin')],
    ['address', 'must be 1 to 64 hex digits', () => coinChanges({ output: 'Empty' }, 'alice')],
    ['resource', 'must be a 0x1::coin::CoinStore<…> resource, got one of type "0x1::coin::CoinInfo<', () => coinBalance(any({ type: INFO.resourceType, data: { decimals: 8 } }))],
    ['resource', 'must be a 0x1::coin::CoinInfo<…> resource', () => coinDecimals(any({ type: STORE, data: { coin: { value: '1' } } }))],
  ])('%s: %s', (parameter, hint, call) => {
    let caught: unknown;
    try {
      call();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(InvalidArgumentError);
    expect((caught as InvalidArgumentError).code).toBe('INVALID_ARGUMENT');
    expect((caught as InvalidArgumentError).parameter).toBe(parameter);
    expect((caught as InvalidArgumentError).message).toContain(hint);
  });
});
