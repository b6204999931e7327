/**
 * EVM transactions on the fake node: an account a test defines with `evm` transactions (each result form
 * of `EvmTransactionOutput`) serves them in every version's listings and by hash, in both shapes, and a
 * walk over it, checked by the strict validator of each profile, meets every one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeClient, type NodeClient } from '@x/node-client';
import { createResponseValidator } from '@x/validators';
import { startNodeStub, StubArgumentError, STUB_ACCOUNTS, type AccountSpec, type NodeStubHandle } from '../src/index.ts';

const evm: AccountSpec = {
  transactions: [{ evm: 'Success' }, { to: 'alice', amount: 5 }, { evm: 'Revert', gasUsed: 23_512 }, { evm: 'Halt' }, { evm: 'Error' }],
};
const FORMS = ['Success', undefined, 'Revert', 'Halt', 'Error'];

const collect = async (it: AsyncIterable<unknown>): Promise<unknown[]> => {
  const out: unknown[] = [];
  for await (const x of it) out.push(x);
  return out;
};
/** The EVM result form of a transaction's output, or undefined for another form. */
const evmForm = (tx: unknown): string | undefined => {
  const output = (tx as { output?: unknown }).output;
  return typeof output === 'object' && output !== null && 'Evm' in output ? Object.keys((output as { Evm: object }).Evm)[0] : undefined;
};

describe.each(['documented', 'live'] as const)('an account with EVM transactions (%s shapes)', (shapes) => {
  let stub: NodeStubHandle;
  let node: NodeClient;
  let address: string;
  beforeAll(async () => {
    stub = await startNodeStub({ port: 0, shapes, accounts: { evm, dave: {} } });
    address = stub.accounts.evm as string;
    node = createNodeClient({ baseUrl: stub.url, validator: createResponseValidator({ strict: true, profile: shapes }), retry: false });
  });
  afterAll(() => stub.close());

  it.each(['v1', 'v2', 'v3'] as const)('a %s walk meets every one, each output in its form, validated', async (v) => {
    const txs = await collect(node[v].transactions(address, { start: 0, pageSize: 2 }));
    expect(txs.map(evmForm)).toEqual(FORMS);
    expect(txs.map((tx) => (tx as { status: string }).status)).toEqual(['Success', 'Success', 'Fail', 'Fail', 'Fail']);
    const success = (txs[0] as { output: { Evm: { Success: { gas_used: number; gas_refunded: number } } } }).output.Evm.Success;
    expect([success.gas_used, success.gas_refunded]).toEqual([21_000, 0]);
    expect((txs[2] as { output: { Evm: { Revert: { gas_used: number } } } }).output.Evm.Revert.gas_used).toBe(23_512);
    expect((txs[3] as { header: { max_gas_amount: number }; output: { Evm: { Halt: { gas_used: number } } } }).output.Evm.Halt.gas_used).toBe(500_000);
  });

  it('one read by hash is the same EVM transaction; the seeded accounts are as before', async () => {
    const [first] = await collect(node.v3.transactions(address, { start: 0, pageSize: 1, limit: 1 }));
    const byHash = await node.v3.getTransaction((first as { hash: string }).hash);
    expect(evmForm(byHash)).toBe('Success');
    const alice = await node.v2.getAccount(STUB_ACCOUNTS.alice);
    expect(alice.sequence_number).toBe(150);
  });
});

describe('bad EVM transaction specs', () => {
  it.each([
    ['evm and to', { evm: 'Success', to: 'alice' }, 'accounts.bad.transactions[0]'],
    ['a result outside the form', { evm: 'Stopped' }, 'accounts.bad.transactions[0].evm'],
    ['evm with a status', { evm: 'Revert', status: 'Fail' }, 'accounts.bad.transactions[0].status'],
  ])('%s: a StubArgumentError naming it', async (_, spec, where) => {
    const err = await startNodeStub({ port: 0, accounts: { bad: { transactions: [spec as never] } } }).then(
      async (s) => {
        await s.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StubArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: where });
  });
});
