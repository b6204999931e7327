/**
 * What became of a transaction, read with `gasUsed` and `transactionOutcome` of `@x/node-client/shapes`:
 * over the stub's transactions (v1, v2, v3, both shapes: Move outputs that succeeded and failed, and the
 * framework's Dkg, Oracle and Empty outputs), and over records a server could send wrong or newer.
 */
import { describe, expect, it } from 'vitest';
import { createNodeClient, ResponseShapeError } from '@x/node-client';
import { gasUsed, transactionEvents, transactionOutcome } from '@x/node-client/shapes';
import { STUB_ACCOUNTS } from '@x/testing';
import { collect, rejectionOf, useNodeStub } from '@x-tools/test-helpers';

const ctx = useNodeStub();
const SHAPES = ['documented', 'live'] as const;
const client = (shapes: (typeof SHAPES)[number]) => createNodeClient({ baseUrl: ctx.stub.url, headers: { 'x-stub-shapes': shapes }, retry: false });

/** The gas the stub's fee event of a Move transaction charged: what gas_used must agree with. */
const charged = (tx: object): bigint | undefined => {
  const fee = transactionEvents(tx).find((e) => e.type === '0x1::transaction_fee::FeeStatement');
  return fee === undefined ? undefined : BigInt((fee.data as { total_charge_gas_units: string }).total_charge_gas_units);
};

describe.each(SHAPES)('over the stub (%s)', (shapes) => {
  it('user transactions, v1 v2 v3: gas as the fee event charged; a failed transfer says why', async () => {
    const node = client(shapes);
    const records = [
      ...(await node.v1.listTransactions(STUB_ACCOUNTS.busy, { count: 100, start: 0 }))!.record,
      ...(await node.v2.listTransactions(STUB_ACCOUNTS.busy, { count: 100, start: 0 })).record,
      ...(await node.v3.listTransactions(STUB_ACCOUNTS.busy, { count: 100, start: 0 })),
    ];
    const outcomes = records.map((tx) => [tx, transactionOutcome(tx)] as const);
    for (const [tx, outcome] of outcomes) {
      expect(outcome.output).toBe('Move');
      expect(gasUsed(tx)).toBe(charged(tx));
      expect(outcome.gasUsed).toBe(gasUsed(tx));
      expect(outcome.gasUsed).toBeGreaterThan(0n);
      expect(outcome.status).toBe(tx.status);
      expect(outcome.success).toBe(tx.status === 'Success');
    }
    const failed = outcomes.filter(([, o]) => !o.success).map(([, o]) => o);
    expect(failed.length).toBeGreaterThan(0);
    for (const o of failed) expect(o).toMatchObject({ status: 'Fail', vmStatus: expect.stringContaining('EINSUFFICIENT_BALANCE') });
    expect(outcomes.filter(([, o]) => o.success).every(([, o]) => o.vmStatus === 'Executed successfully')).toBe(true);
  });

  it("the framework's system transactions (v3): Dkg, Oracle and Empty outputs state no gas", async () => {
    const items = await collect(client(shapes).v3.transactions(STUB_ACCOUNTS.framework));
    expect(items).toHaveLength(40);
    const byKind = new Map<string, ReturnType<typeof transactionOutcome>[]>();
    for (const tx of items) {
      const o = transactionOutcome(tx);
      expect(gasUsed(tx)).toBeUndefined();
      expect(o).toMatchObject({ gasUsed: undefined, vmStatus: undefined, success: o.status === 'Success' });
      byKind.set(o.output ?? 'none', [...(byKind.get(o.output ?? 'none') ?? []), o]);
    }
    expect([...byKind.keys()].sort()).toEqual(['Dkg', 'Empty', 'Oracle']);
    // An oracle round that failed is a Fail, read from the output where the record's status agrees.
    expect(byKind.get('Oracle')!.some((o) => o.status === 'Fail')).toBe(true);
  });
});

describe('records a server could send', () => {
  it('a Dkg or Oracle output without a record status gives its own; no output is no outcome yet', () => {
    expect(transactionOutcome({ output: { Oracle: 'Fail' } })).toEqual({ status: 'Fail', success: false, output: 'Oracle', vmStatus: undefined, gasUsed: undefined });
    expect(transactionOutcome({ status: 'Pending', output: null })).toEqual({ status: 'Pending', success: false, output: undefined, vmStatus: undefined, gasUsed: undefined });
    expect(transactionOutcome({ hash: '0xab' })).toEqual({ status: undefined, success: false, output: undefined, vmStatus: undefined, gasUsed: undefined });
    expect(gasUsed({ output: 'Empty' })).toBeUndefined();
  });

  it('gas_used as a decimal string (u64) and above 2^53, exactly', () => {
    expect(gasUsed({ output: { Move: { gas_used: '18446744073709551615', events: [], vm_status: 'Executed successfully' } } })).toBe(18446744073709551615n);
  });

  it('a form newer than the types (an EVM output) is read as the others are', () => {
    const tx = { status: 'Success', output: { Evm: { gas_used: 21000, vm_status: 'Succeeded' } } };
    expect(gasUsed(tx)).toBe(21000n);
    expect(transactionOutcome(tx)).toEqual({ status: 'Success', success: true, output: 'Evm', vmStatus: 'Succeeded', gasUsed: 21000n });
  });

  it.each([
    ['gasUsed', 'gas_used not a u64', () => gasUsed({ output: { Move: { gas_used: 'x', events: [] } } }), '/output/Move/gas_used'],
    ['gasUsed', 'a negative gas_used', () => gasUsed({ output: { Move: { gas_used: -1 } } }), '/output/Move/gas_used'],
    ['gasUsed', 'an output of two forms', () => gasUsed({ output: { Move: {}, Dkg: 'Success' } }), '/output'],
    ['gasUsed', 'an output string other than Empty', () => gasUsed({ output: 'Pending' }), '/output'],
    ['transactionOutcome', 'an output list', () => transactionOutcome({ output: [] }), '/output'],
    ['transactionOutcome', 'a status not a string', () => transactionOutcome({ status: 1, output: 'Empty' }), '/status'],
    ['transactionOutcome', 'vm_status not a string', () => transactionOutcome({ output: { Move: { gas_used: 1, vm_status: null } } }), '/output/Move/vm_status'],
  ])('%s: %s is a ResponseShapeError at its pointer', async (reader, _, read, path) => {
    const err = await rejectionOf(Promise.resolve().then((): unknown => read()));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err).toMatchObject({ code: 'RESPONSE_SHAPE_ERROR', operationId: reader, path });
  });
});
