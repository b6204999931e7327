/**
 * `@x/node-client/shapes` reads the same meaning from the documented and the live form of a record:
 * on pages the documented stub serves over loopback, on the live forms of the public sources
 * (LIVE-SHAPES.md), and it rejects what is neither with a ResponseShapeError (the record came from a
 * server) whose path is the JSON pointer of the value.
 */
import { describe, expect, it } from 'vitest';
import { createNodeClient, InvalidArgumentError, ResponseShapeError, type Event, type SmrTimestamp, type TransactionInfoV2 } from '@x/node-client';
import {
  eventGuid,
  eventSequenceNumber,
  moduleFriends,
  moduleFunctions,
  moduleName,
  moduleStructs,
  senderAddress,
  timestampDate,
  timestampMicros,
} from '@x/node-client/shapes';
import { STUB_ACCOUNTS } from '@x/testing';
import { liveModuleAbi, liveTransactionV1 } from '../../validators/test/live-bodies.ts';
import { useNodeStub } from '@x-tools/test-helpers';

const ctx = useNodeStub();

describe('on what the stub serves (documented forms)', () => {
  it('reads timestamps, senders, event guids and sequence numbers of a real page', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    const page = await node.v2.listTransactions(STUB_ACCOUNTS.alice, { count: 20 });
    const moves = page.record.filter((t): t is TransactionInfoV2 & { output: { Move: unknown } } => typeof t.output === 'object' && t.output !== null && 'Move' in t.output);
    expect(moves.length).toBeGreaterThan(0);
    for (const tx of page.record) {
      expect(senderAddress(tx.header.sender)).toBe(STUB_ACCOUNTS.alice);
      const ts = tx.block_header!.timestamp as { timestamp: number };
      expect(timestampMicros(tx.block_header!.timestamp)).toBe(ts.timestamp);
      expect(timestampDate(tx.block_header!.timestamp).getTime()).toBe(Math.floor(ts.timestamp / 1000));
    }
    for (const tx of moves) {
      for (const e of (tx.output.Move as { events: Event[] }).events) {
        const guid = eventGuid(e)!;
        expect(`${guid.accountAddress}:${guid.creationNumber}`).toBe(e.guid);
        expect(eventSequenceNumber(e)).toBe(BigInt(e.sequence_number as number));
      }
    }
  });

  it('reads the functions and structs of a module ABI', async () => {
    const node = createNodeClient({ baseUrl: ctx.stub.url });
    const coin = await node.v2.getModule('0x1', 'coin');
    const fns = moduleFunctions(coin.abi);
    expect(fns.map((f) => f.name)).toContain('transfer');
    expect(fns.every((f) => typeof f.is_view === 'boolean' && Array.isArray(f.params))).toBe(true);
    expect(moduleStructs(coin.abi).map((s) => s.name)).toContain('CoinStore');
    expect(moduleName(coin.abi)).toBe('coin');
    expect(moduleFriends(coin.abi).every((f) => /^0x[0-9a-f]+::[a-z_]+$/.test(f))).toBe(true);
  });

  it.each(['documented', 'live'] as const)('reads module names and friends the same in both shapes (%s), v1 and v2', async (shapes) => {
    const node = createNodeClient({ baseUrl: ctx.stub.url, headers: { 'x-stub-shapes': shapes } });
    const documented = createNodeClient({ baseUrl: ctx.stub.url });
    for await (const m of node.v2.modules('0x1')) {
      const name = moduleName(m.abi)!;
      const v1 = (await node.v1.getModule('0x1', name))!;
      expect(moduleName(v1)).toBe(name);
      const friends = moduleFriends((await documented.v2.getModule('0x1', name)).abi);
      expect(moduleFriends(m.abi)).toEqual(friends);
      expect(moduleFriends(v1)).toEqual(friends);
    }
  });
});

describe('on the live forms', () => {
  const tx = liveTransactionV1;
  it.each([
    ['timestampMicros', () => timestampMicros(tx.block_header.timestamp), 1_734_471_953_424_357],
    ['timestampDate', () => timestampDate(tx.block_header.timestamp).toISOString(), '2024-12-17T21:45:53.424Z'],
    ['senderAddress', () => senderAddress(tx.header.sender), tx.header.sender.Move],
    ['eventGuid', () => eventGuid(tx.output.Move.events[0]!), { accountAddress: tx.header.sender.Move, creationNumber: 2n }],
    ['eventGuid of 0x0', () => eventGuid(tx.output.Move.events[1]!), { accountAddress: '0x0', creationNumber: 0n }],
    ['eventSequenceNumber', () => eventSequenceNumber(tx.output.Move.events[0]!), 11n],
    ['eventSequenceNumber beyond 2^53', () => eventSequenceNumber({ sequence_number: '18446744073709551615' }), 18446744073709551615n],
    ['moduleFunctions', () => moduleFunctions(liveModuleAbi).map((f) => f.name), ['add', 'contains']],
    ['moduleStructs', () => moduleStructs(liveModuleAbi).map((s) => s.name), ['ACL']],
    ['moduleName', () => moduleName(liveModuleAbi), liveModuleAbi.name],
    ['moduleFriends', () => moduleFriends(liveModuleAbi), liveModuleAbi.friends],
  ])('%s', (_name, read, expected) => {
    expect(read()).toEqual(expected);
  });

  it('gives no guid for a documented string of another form (the document defines none)', () => {
    expect(eventGuid({ guid: 'stream-7' })).toBeUndefined();
  });

  it('gives no name for a documented name object of another form (the document defines none)', () => {
    expect(moduleName({ name: { module: 'coin' } })).toBeUndefined();
  });
});

describe('records of neither form', () => {
  it.each([
    ['timestampMicros', '', () => timestampMicros({ seconds: 1 } as unknown as SmrTimestamp)],
    ['timestampMicros', '', () => timestampMicros({ timestamp: -1 })],
    ['timestampMicros', '', () => timestampDate({ microseconds_since_unix_epoch: '1', utc_date_time: 'x' } as unknown as SmrTimestamp)],
    ['senderAddress', '', () => senderAddress({ Evm: '0x1' } as never)],
    ['senderAddress', '', () => senderAddress({ Move: '0x1', Evm: '0x2' } as never)],
    ['eventGuid', '/guid', () => eventGuid({ guid: 7 } as never)],
    ['eventGuid', '/guid/creation_number', () => eventGuid({ guid: { account_address: '0x1', creation_number: 'two' } })],
    ['eventSequenceNumber', '/sequence_number', () => eventSequenceNumber({ sequence_number: '0x1' })],
    ['eventSequenceNumber', '/sequence_number', () => eventSequenceNumber({ sequence_number: '18446744073709551616' })],
    ['eventSequenceNumber', '/sequence_number', () => eventSequenceNumber({ sequence_number: 2 ** 53 })],
    ['moduleFunctions', '/exposed_functions', () => moduleFunctions({ exposed_functions: 'none' } as never)],
    ['moduleStructs', '/structs', () => moduleStructs({ structs: null } as never)],
    ['moduleName', '/name', () => moduleName({ name: 7 } as never)],
    ['moduleFriends', '/friends', () => moduleFriends({ friends: 'genesis' } as never)],
    ['moduleFriends', '/friends/1', () => moduleFriends({ friends: ['0x1::genesis', 7] } as never)],
  ])('%s (%s): ResponseShapeError with the JSON pointer, not InvalidArgumentError', (reader, path, read) => {
    let caught: unknown;
    try {
      read();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ResponseShapeError);
    expect(caught).not.toBeInstanceOf(InvalidArgumentError);
    expect((caught as ResponseShapeError).code).toBe('RESPONSE_SHAPE_ERROR');
    expect((caught as ResponseShapeError).operationId).toBe(reader);
    expect((caught as ResponseShapeError).path).toBe(path);
    expect((caught as ResponseShapeError).message).toContain(`Response of ${reader} at '${path || '/'}': expected `);
  });
});
