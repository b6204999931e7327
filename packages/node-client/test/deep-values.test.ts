/**
 * What a hostile node sends cannot freeze or fool the readers of `@x/node-client/shapes`: a value
 * nested 100,000 levels deep, or a huge one, where a reader expects a number, a string or a record, is
 * a ResponseShapeError with the usual reader name and JSON pointer and a short message, never a
 * `RangeError: Maximum call stack size exceeded` or a message the size of the value. The wallet readers
 * read what a loopback server answers (the body is written as text: JSON.stringify itself cannot write
 * it); the record readers take parsed values, as their other tests do.
 */
import { describe, expect, it } from 'vitest';
import { createNodeClient, InvalidArgumentError, ResponseShapeError, type NodeClient } from '@x/node-client';
import {
  coinBalance,
  coinChanges,
  coinDecimals,
  coinInfoOf,
  coinStoreType,
  eventGuid,
  eventSequenceNumber,
  moduleFriends,
  moduleFunctions,
  moduleName,
  moduleStructs,
  senderAddress,
  SUPRA_COIN,
  timestampMicros,
} from '@x/node-client/shapes';
import { STUB_ACCOUNTS } from '@x/testing';
import { startBadServer } from './helpers.ts';

const DEPTH = 100_000;
/** JSON text of arrays nested `DEPTH` deep: `[[[…]]]`. */
const DEEP_ARRAY = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
/** JSON text of objects nested `DEPTH` deep: `{"a":{"a":…{}}}`. */
const DEEP_OBJECT = `${'{"a":'.repeat(DEPTH)}{}${'}'.repeat(DEPTH)}`;
const deepArray = (): unknown => JSON.parse(DEEP_ARRAY);
const deepObject = (): unknown => JSON.parse(DEEP_OBJECT);
/** What a message may show of a value, with room for the reader's name, the path and the expectation. */
const SHORT = 500;

function thrown(read: () => unknown): unknown {
  try {
    read();
  } catch (e) {
    return e;
  }
  return expect.fail('expected a ResponseShapeError');
}

function expectShapeError(err: unknown, reader: string, path: string): void {
  if (!(err instanceof ResponseShapeError)) throw err; // a RangeError shows itself, with its stack
  // Lengths first, so that a failure does not print a value of megabytes.
  expect(err.message.length, 'message length').toBeLessThan(SHORT);
  expect(err.path.length, 'path length').toBeLessThan(SHORT);
  expect(err).not.toBeInstanceOf(InvalidArgumentError);
  expect(err.code).toBe('RESPONSE_SHAPE_ERROR');
  expect(err.operationId).toBe(reader);
  expect(err.path).toBe(path);
  expect(err.message).toMatch(new RegExp(`^Response of ${reader} at '${path || '/'}': expected .+, got `));
}

describe('record readers: a value nested 100,000 deep is a ResponseShapeError', () => {
  const any = <T>(v: unknown): T => v as T;
  it.each<[label: string, reader: string, path: string, read: (deep: unknown) => unknown]>([
    ['the timestamp', 'timestampMicros', '', (d) => timestampMicros(any(d))],
    ['its microseconds', 'timestampMicros', '', (d) => timestampMicros(any({ microseconds_since_unix_epoch: d, utc_date_time: 'x' }))],
    ['its documented timestamp', 'timestampMicros', '', (d) => timestampMicros(any({ timestamp: d }))],
    ['the sender', 'senderAddress', '', (d) => senderAddress(any(d))],
    ['the sender of Move', 'senderAddress', '', (d) => senderAddress(any({ Move: d }))],
    ['the guid', 'eventGuid', '/guid', (d) => eventGuid(any({ guid: d }))],
    ['the creation number', 'eventGuid', '/guid/creation_number', (d) => eventGuid(any({ guid: { account_address: '0x1', creation_number: d } }))],
    ['the sequence number', 'eventSequenceNumber', '/sequence_number', (d) => eventSequenceNumber(any({ sequence_number: d }))],
    ['a name', 'moduleName', '/name', (d) => moduleName(any({ name: [d] }))],
    ['a friend', 'moduleFriends', '/friends/0', (d) => moduleFriends(any({ friends: [d] }))],
    ['a friend in a list', 'moduleFriends', '/friends/0', (d) => moduleFriends(any({ friends: [[d]] }))],
  ])('%s (%s, %s)', (_label, reader, path, read) => {
    for (const deep of [deepArray(), deepObject()]) expectShapeError(thrown(() => read(deep)), reader, path);
  });

  it('reads the functions and structs of deep ABIs without walking them', () => {
    // A list of functions is returned as sent; an object's values that describe none are skipped.
    expect(moduleFunctions(any({ exposed_functions: deepObject() }))).toEqual([]);
    expect(moduleStructs(any({ structs: { s: deepObject() } }))).toEqual([]);
    expect(moduleName(any({ name: deepObject() }))).toBeUndefined();
  });
});

describe('wallet readers over loopback: a body nested 100,000 deep is a ResponseShapeError', () => {
  const A = STUB_ACCOUNTS.alice;
  const STORE = coinStoreType(SUPRA_COIN);
  const INFO = coinInfoOf(SUPRA_COIN);
  const v2Store = (node: NodeClient) => node.v2.getResource(A, STORE);
  const v1Store = async (node: NodeClient) => (await node.v1.getResource(A, STORE))!;
  const v2Info = (node: NodeClient) => node.v2.getResource(INFO.address, INFO.resourceType);
  const v1Info = async (node: NodeClient) => (await node.v1.getResource(INFO.address, INFO.resourceType))!;
  const coinTx = async (node: NodeClient) => (await node.v2.listCoinTransactions(A)).record[0]!;
  const tx = (events: string) => `{"record":[{"hash":"0x1","output":{"Move":{"gas_used":1,"vm_status":"ok","events":${events}}}}],"cursor":1}`;
  const event = (fields: string) => `[{"sequence_number":"0","type":"0x1::coin::DepositEvent",${fields}}]`;

  // Where a reader needs a value other than an object, the deep value is wrapped in an array.
  type Case = [label: string, reader: string, path: string, body: (deep: string) => string, read: (node: NodeClient) => Promise<unknown>];
  const cases: Case[] = [
    ['v2 coin', 'coinBalance', '/data/coin', (d) => `{"type":"${STORE}","data":{"coin":[${d}]}}`, async (n) => coinBalance(await v2Store(n))],
    ['v2 coin value', 'coinBalance', '/data/coin/value', (d) => `{"type":"${STORE}","data":{"coin":{"value":${d}}}}`, async (n) => coinBalance(await v2Store(n))],
    ['v2 neither data nor result, beside a deep field', 'coinBalance', '', (d) => `{"type":"${STORE}","extra":${d}}`, async (n) => coinBalance(await v2Store(n))],
    ['the whole resource', 'coinBalance', '', (d) => d, async (n) => coinBalance(await v2Store(n))],
    ['v1 live balance', 'coinBalance', '/result/0/coin/value', (d) => `{"result":[{"coin":{"value":${d}}}]}`, async (n) => coinBalance(await v1Store(n))],
    ['v1 documented Struct coin', 'coinBalance', '/result/0/Struct/coin', (d) => `{"result":[{"Struct":{"coin":[${d}]}}]}`, async (n) => coinBalance(await v1Store(n))],
    ['v1 per-field item', 'coinBalance', '/result/0', (d) => `{"result":[[${d}],{"Bool":false}]}`, async (n) => coinBalance(await v1Store(n))],
    ['v2 decimals', 'coinDecimals', '/data/decimals', (d) => `{"type":"${INFO.resourceType}","data":{"decimals":${d}}}`, async (n) => coinDecimals(await v2Info(n))],
    ['v1 per-field decimals', 'coinDecimals', '/result/2/U8', (d) => `{"result":[{"String":"S"},{"String":"S"},{"U8":${d}},null]}`, async (n) => coinDecimals(await v1Info(n))],
    ['events', 'coinChanges', '/output/Move/events', (d) => tx(`{"e":${d}}`), async (n) => coinChanges(await coinTx(n), A)],
    ['an event', 'coinChanges', '/output/Move/events/0', (d) => tx(`[[${d}]]`), async (n) => coinChanges(await coinTx(n), A)],
    ['an event guid', 'coinChanges', '/output/Move/events/0/guid', (d) => tx(event(`"guid":${d},"data":{"amount":"1"}`)), async (n) => coinChanges(await coinTx(n), A)],
    ['an event amount', 'coinChanges', '/output/Move/events/0/data/amount', (d) => tx(event(`"guid":"${A}:3","data":{"amount":${d}}`)), async (n) => coinChanges(await coinTx(n), A)],
    [
      'a CoinStore handle',
      'coinChanges',
      '/data/deposit_events/guid/id/creation_num',
      (d) => `{"type":"${STORE}","data":{"deposit_events":{"guid":{"id":{"creation_num":${d}}}}}}`,
      async (n) => coinChanges({ output: 'Empty' }, A, { coinStore: await v2Store(n) }),
    ],
  ];

  it.each(cases)('%s (%s, %s)', async (label, reader, path, body, read) => {
    for (const deep of [DEEP_ARRAY, DEEP_OBJECT]) {
      const text = body(deep);
      const server = await startBadServer((_url, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(text));
      try {
        const node = createNodeClient({ baseUrl: server.url, retry: false });
        const err: unknown = await read(node).then(() => expect.fail(`expected a ResponseShapeError (${label})`), (e: unknown) => e);
        expectShapeError(err, reader, path);
      } finally {
        await server.close();
      }
    }
  });
});

describe('a huge value: the message stays short', () => {
  const BIG = 10_000_000;
  const STORE = coinStoreType(SUPRA_COIN);
  const any = <T>(v: unknown): T => v as T;
  it.each<[label: string, reader: string, path: string, read: () => unknown]>([
    ['a 10 MB string', 'eventSequenceNumber', '/sequence_number', () => eventSequenceNumber(any({ sequence_number: 'x'.repeat(BIG) }))],
    ['an array of 1,000,000 items', 'senderAddress', '', () => senderAddress(any(new Array(1_000_000).fill('0x1')))],
    ['an object of 200,000 keys', 'timestampMicros', '', () => timestampMicros(any(Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, i]))))],
    ['a 10 MB string as a MoveValue key', 'coinDecimals', '/result/2', () => coinDecimals(any({ result: [{ String: 'S' }, { String: 'S' }, { ['U'.repeat(BIG)]: 'eight' }, null] }))],
    ['a 10 MB resource type beside no data', 'coinBalance', '', () => coinBalance(any({ type: `0x1::coin::CoinStore<${'a'.repeat(BIG)}>` }))],
  ])('%s (%s)', (_label, reader, path, read) => {
    expectShapeError(thrown(read), reader, path);
  });

  it('a bigint inside a record a caller built is shown, not a TypeError of JSON', () => {
    expectShapeError(
      thrown(() => coinBalance(any({ type: STORE, data: { coin: [1n] } }))),
      'coinBalance',
      '/data/coin',
    );
  });

  it('a 10 MB resource type of another coin: the InvalidArgumentError stays short too', () => {
    const err = thrown(() => coinBalance(any({ type: `0x1::coin::CoinInfo<${'a'.repeat(BIG)}>`, data: {} })));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as Error).message.length).toBeLessThan(SHORT);
  });
});

describe('a small value is shown as its JSON, cut at 60 characters, as before', () => {
  it.each<[label: string, value: unknown]>([
    ['an object', { Evm: '0x1' }],
    ['nested', { a: [1, 'two', null, true, { b: {} }], c: [] }],
    ['entries JSON leaves out, and null for them in an array', { a: undefined, f: () => 1, b: [undefined, () => 1] }],
    ['a long string', 'x'.repeat(100)],
    ['a long string of escapes', '\n\u0000"'.repeat(40)],
    ['a long array', Array.from({ length: 50 }, (_, i) => i)],
    ['a long key', { ['k'.repeat(100)]: 1 }],
    ['a number', 1.5],
    ['NaN', Number.NaN],
  ])('%s', (_label, value) => {
    const json = JSON.stringify(value);
    const err = thrown(() => timestampMicros(value as never));
    expect((err as ResponseShapeError).message).toMatch(/^Response of timestampMicros at '\/': expected .+, got /);
    expect((err as ResponseShapeError).message.split(', got ')[1]).toBe(json.length > 60 ? `${json.slice(0, 60)}...` : json);
  });
});
