/**
 * What a transaction did, read with `entryFunction` and `transactionEvents` of `@x/node-client/shapes`:
 * over the stub's transactions in both shapes (and v1, v2), and over records a server could send wrong.
 */
import { describe, expect, it } from 'vitest';
import { createNodeClient, ResponseShapeError } from '@x/node-client';
import { coinChanges, entryFunction, transactionEvents } from '@x/node-client/shapes';
import { STUB_ACCOUNTS } from '@x/testing';
import { useNodeStub } from '@x-tools/test-helpers';

const ctx = useNodeStub();
const FORMS = (['documented', 'live'] as const).flatMap((shapes) => (['v1', 'v2'] as const).map((version) => [shapes, version] as const));

describe.each(FORMS)('over the stub (%s, %s)', (shapes, version) => {
  const node = () => createNodeClient({ baseUrl: ctx.stub.url, headers: { 'x-stub-shapes': shapes }, retry: false });

  it('a transfer: 0x1::supra_account::transfer with the recipient and the amount; its coin events', async () => {
    const { record } = await node()[version].listTransactions(STUB_ACCOUNTS.alice, { count: 100, start: 0 });
    const transfers = record.filter((tx) => entryFunction(tx)?.function === 'transfer');
    expect(transfers.length).toBeGreaterThan(0);
    for (const tx of transfers) {
      const call = entryFunction(tx)!;
      expect(call).toMatchObject({ address: '0x1', module: 'supra_account', function: 'transfer', typeArguments: [] });
      expect(call.arguments).toEqual([expect.stringMatching(/^0x[0-9a-f]+$/), expect.stringMatching(/^[0-9]+$/)]);
      if (tx.status === 'Success') expect(transactionEvents(tx).map((e) => e.type)).toEqual(expect.arrayContaining(['0x1::coin::WithdrawEvent', '0x1::coin::DepositEvent']));
    }
  });
});

describe('v3: the readers take a TransactionV3 of any kind, un-narrowed', () => {
  it.each(['documented', 'live'] as const)('%s: coin transactions newest first, their calls and net changes', async (shapes) => {
    const node = createNodeClient({ baseUrl: ctx.stub.url, headers: { 'x-stub-shapes': shapes }, retry: false });
    const { items } = await node.v3.listCoinTransactions(STUB_ACCOUNTS.alice, { count: 10 });
    expect(items.length).toBeGreaterThan(0);
    // No narrowing on txn_type: the first-day user's code, which did not type-check before.
    const lines = items.map((tx) => `${entryFunction(tx)?.function ?? '-'} ${coinChanges(tx, STUB_ACCOUNTS.alice).net} ${transactionEvents(tx).length}`);
    expect(lines.every((l) => /^\S+ -?[0-9]+ [0-9]+$/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith('transfer '))).toBe(true);
  });
});

describe('records a server could send', () => {
  it.each([
    ['a script payload', { payload: { Move: { type: 'script_payload', code: { bytecode: '0x00' } } } }, undefined],
    ['no payload', {}, undefined],
    ['the inner payload alone', { payload: { type: 'entry_function_payload', function: '0xcafe::m::f', type_arguments: ['u64'], arguments: [true, ['1']] } }, { address: '0xcafe', module: 'm', function: 'f', typeArguments: ['u64'], arguments: [true, ['1']] }],
  ])('%s', (_, tx, expected) => {
    expect(entryFunction(tx)).toEqual(expected);
  });

  it.each([
    ['a function that is not address::module::name', { payload: { Move: { type: 'entry_function_payload', function: 'transfer', arguments: [] } } }, '/payload/Move/function'],
    ['arguments that are not a list', { payload: { Move: { type: 'entry_function_payload', function: '0x1::m::f', arguments: 'x' } } }, '/payload/Move/arguments'],
  ])('entryFunction: %s is a ResponseShapeError naming where', (_, tx, path) => {
    expect(() => entryFunction(tx)).toThrow(ResponseShapeError);
    expect(() => entryFunction(tx)).toThrow(expect.objectContaining({ code: 'RESPONSE_SHAPE_ERROR', path, operationId: 'entryFunction' }));
  });

  it('transactionEvents: none without a Move output; a malformed list is a ResponseShapeError', () => {
    expect(transactionEvents({ output: 'Empty' })).toEqual([]);
    expect(transactionEvents({ output: null })).toEqual([]);
    expect(transactionEvents({})).toEqual([]);
    expect(() => transactionEvents({ output: { Move: { gas_used: 1, vm_status: '', events: 'x' } } as never })).toThrow(expect.objectContaining({ code: 'RESPONSE_SHAPE_ERROR', path: '/output/Move/events' }));
  });
});
