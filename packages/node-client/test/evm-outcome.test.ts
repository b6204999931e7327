/**
 * `gasUsed` and `transactionOutcome` of `@x/node-client/shapes` over EVM transactions: gas read from the
 * result form of an `{ Evm }` output as from a Move output, and the result (`Success`, `Revert`, `Halt`,
 * `Error`) deciding `success`; over the stub's EVM account (v1, v2, v3, both shapes) and over records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeClient, ResponseShapeError } from '@x/node-client';
import { gasUsed, transactionOutcome } from '@x/node-client/shapes';
import { startNodeStub, type NodeStubHandle } from '@x/testing';
import { collect, rejectionOf } from '@x-tools/test-helpers';

let stub: NodeStubHandle;
beforeAll(async () => {
  stub = await startNodeStub({ port: 0, accounts: { evm: { transactions: [{ evm: 'Success' }, { evm: 'Revert', gasUsed: 23_512 }, { evm: 'Halt' }, { evm: 'Error' }, { to: 'alice' }] } } });
});
afterAll(() => stub.close());

describe.each(['documented', 'live'] as const)('over the stub (%s)', (shapes) => {
  it.each(['v1', 'v2', 'v3'] as const)('%s: gas and outcome of each EVM result, and of a Move transfer alike', async (v) => {
    const node = createNodeClient({ baseUrl: stub.url, headers: { 'x-stub-shapes': shapes }, retry: false });
    const txs = await collect(node[v].transactions(stub.accounts.evm as string, { start: 0 }));
    expect(txs.map((tx) => gasUsed(tx))).toEqual([21_000n, 23_512n, 500_000n, undefined, 12n]);
    expect(txs.map((tx) => transactionOutcome(tx))).toEqual([
      { status: 'Success', success: true, output: 'Evm', vmStatus: 'Success', gasUsed: 21_000n },
      { status: 'Fail', success: false, output: 'Evm', vmStatus: 'Revert', gasUsed: 23_512n },
      { status: 'Fail', success: false, output: 'Evm', vmStatus: 'Halt', gasUsed: 500_000n },
      { status: 'Fail', success: false, output: 'Evm', vmStatus: 'Error', gasUsed: undefined },
      { status: 'Success', success: true, output: 'Move', vmStatus: 'Executed successfully', gasUsed: 12n },
    ]);
  });
});

describe('EVM records a server could send', () => {
  it('a reverted EVM output is no success even where the record says Success; without a status its result stands for one', () => {
    const reverted = { status: 'Success', output: { Evm: { Revert: { gas_used: '18446744073709551615', output: '0x' } } } };
    expect(transactionOutcome(reverted)).toMatchObject({ status: 'Success', success: false, vmStatus: 'Revert', gasUsed: 18446744073709551615n });
    expect(transactionOutcome({ output: { Evm: { Success: { reason: 'Stop', gas_used: 7, gas_refunded: 0, logs: [], output: null } } } })).toMatchObject({ status: 'Success', success: true, gasUsed: 7n });
    expect(transactionOutcome({ output: { Evm: { Error: { message: 'nonce too low' } } } })).toMatchObject({ status: 'Fail', success: false, gasUsed: undefined });
  });

  it.each([
    ['gasUsed', () => gasUsed({ output: { Evm: { Halt: { reason: 'OutOfGas', gas_used: -1 } } } }), '/output/Evm/Halt/gas_used'],
    ['transactionOutcome', () => transactionOutcome({ output: { Evm: { Success: { gas_used: 'lots' } } } }), '/output/Evm/Success/gas_used'],
  ])('%s: a bad EVM gas_used is a ResponseShapeError at its pointer', async (reader, read, path) => {
    const err = await rejectionOf(Promise.resolve().then((): unknown => read()));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toMatchObject({ code: 'RESPONSE_SHAPE_ERROR', operationId: reader, path });
  });
});
